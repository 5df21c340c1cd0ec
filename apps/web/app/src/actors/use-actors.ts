import { useCallback, useEffect, useRef, useState } from 'react';
import { subscribeLedger } from '../api/group-ledger-hub';
import { api } from '../api/client';
import type { ActorListEntry } from '../api/types';

/** Working state changes even when nothing is appended (terminal heuristics, idle time). */
const POLL_MS = 5000;

/**
 * The ledger kinds that change the list (all carried by the shared group stream, which names
 * them: a stream naming no kinds carries only the chat kinds of §8.15); actor.activity is the
 * daemon's working-state change event.
 */
const ACTOR_STREAM_KINDS = [
  'actor.add',
  'actor.update',
  'actor.remove',
  'actor.set_role',
  'actor.start',
  'actor.stop',
  'actor.restart',
  'actor.activity',
  'group.start',
  'group.stop',
  'group.set_state',
];

/**
 * The group's actor list, live: re-read on actor and group lifecycle ledger events, and
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
    api.actor_list(groupId)
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

  // Only the kinds named above arrive; each one re-reads the list (coalesced while a read runs).
  // Through the app's one ledger stream per group, shared with the chat.
  useEffect(() => subscribeLedger(groupId, ACTOR_STREAM_KINDS, refresh), [groupId, refresh]);

  return { actors, error, refresh };
}
