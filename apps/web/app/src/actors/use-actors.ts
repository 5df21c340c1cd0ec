import { useCallback, useEffect, useRef, useState } from 'react';
import { get, seg } from '../api/http';
import type { ActorListEntry } from '../api/types';
import { useLedgerStream } from '../api/use-ledger-stream';

/** Working state changes even when nothing is appended (terminal heuristics, idle time). */
const POLL_MS = 5000;

/**
 * The group's actor list, live: re-read on actor.* and system.* ledger events (coalesced), and
 * on a slow poll while the page is visible so the working-state badge stays current.
 */
export function useActors(groupId: string): { actors: ActorListEntry[] | null; error: string | null; refresh: () => void } {
  const [actors, setActors] = useState<ActorListEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inflight = useRef(false);
  const again = useRef(false);

  const refresh = useCallback(() => {
    if (inflight.current) {
      again.current = true;
      return;
    }
    inflight.current = true;
    get<{ actors: ActorListEntry[] }>(`/groups/${seg(groupId)}/actors`)
      .then(
        (r) => {
          setActors(r.actors);
          setError(null);
        },
        (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
      )
      .finally(() => {
        inflight.current = false;
        if (again.current) {
          again.current = false;
          refresh();
        }
      });
  }, [groupId]);

  useEffect(() => {
    refresh();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') refresh();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [refresh]);

  useLedgerStream(groupId, (event) => {
    if (event.kind.startsWith('actor.') || event.kind.startsWith('system.')) refresh();
  });

  return { actors, error, refresh };
}
