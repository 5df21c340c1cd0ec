import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../api/client';
import type { RecipientStatus } from '../api/types';

export type StatusMap = ReadonlyMap<string, Record<string, RecipientStatus>>;

/** Well under the daemon's MAX_STATUS_EVENT_IDS (1000) per request. */
const BATCH = 200;

/**
 * Per-recipient status of the messages on screen, from `POST /ledger/statuses`. Rows ask for
 * their ids as they mount (`want`); live delivery / read / reply / confirmation events mark ids
 * stale (`invalidate`), which refetches them. Requests are coalesced into one per frame.
 */
export function useStatuses(groupId: string): { statuses: StatusMap; want: (ids: readonly string[]) => void; invalidate: (ids: readonly string[]) => void } {
  const [statuses, setStatuses] = useState<StatusMap>(new Map());
  const known = useRef(new Set<string>());
  const queued = useRef(new Set<string>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
      if (timer.current) clearTimeout(timer.current);
    };
  }, []);

  const flush = useCallback(() => {
    timer.current = null;
    const ids = [...queued.current];
    queued.current.clear();
    for (let i = 0; i < ids.length; i += BATCH) {
      const batch = ids.slice(i, i + BATCH);
      api.ledger_statuses(groupId, { event_ids: batch }).then(
        (r) => {
          if (!live.current) return;
          setStatuses((prev) => {
            const next = new Map(prev);
            for (const id of batch) if (r.statuses[id]) next.set(id, r.statuses[id]);
            return next;
          });
        },
        () => {
          // Forget them so the next mount or event asks again.
          for (const id of batch) known.current.delete(id);
        },
      );
    }
  }, [groupId]);

  const schedule = useCallback(() => {
    if (!timer.current) timer.current = setTimeout(flush, 16);
  }, [flush]);

  const want = useCallback(
    (ids: readonly string[]) => {
      for (const id of ids) {
        if (known.current.has(id)) continue;
        known.current.add(id);
        queued.current.add(id);
      }
      if (queued.current.size > 0) schedule();
    },
    [schedule],
  );

  const invalidate = useCallback(
    (ids: readonly string[]) => {
      // Only ids already shown are refetched; others are fetched fresh when they mount.
      for (const id of ids) if (known.current.has(id)) queued.current.add(id);
      if (queued.current.size > 0) schedule();
    },
    [schedule],
  );

  return { statuses, want, invalidate };
}
