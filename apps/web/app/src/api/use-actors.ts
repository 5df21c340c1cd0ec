import { useCallback, useEffect, useState } from 'react';
import { api } from './client';
import type { ActorListEntry } from './types';

/**
 * The group's actors, with unread Mail counts when `withUnread` (counting walks each actor's
 * unread Mail, which the chat's completion does not need). `reload` is called by views that saw
 * an actor.* or mail event on their ledger stream; failures keep the last good list.
 */
export function useActors(groupId: string, withUnread = false): { actors: ActorListEntry[]; reload: () => void; error: string | null } {
  const [actors, setActors] = useState<ActorListEntry[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    api.actor_list(groupId, withUnread ? { include_unread: true } : {}).then(
      (r) => {
        if (!live) return;
        setActors(r.actors);
        setError(null);
      },
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [groupId, withUnread, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { actors, reload, error };
}
