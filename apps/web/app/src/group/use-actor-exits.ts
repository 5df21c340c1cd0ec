import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { subscribeLedger } from '../api/group-ledger-hub';
import { applyLifecycle, lifecycleActorId, type ActorExits } from '../actors/actor-exits';

const LIFECYCLE_KINDS = ['actor.start', 'actor.stop', 'actor.restart', 'actor.remove'];

/**
 * The group's actors that ended by themselves (actor-exits.ts): the recent lifecycle events from
 * the ledger, then live ones from the shared stream. An actor a live event already spoke for
 * is not overwritten by the older page.
 */
export function useActorExits(groupId: string): ActorExits {
  const [exits, setExits] = useState<ActorExits>(new Map());
  useEffect(() => {
    let live = true;
    const touched = new Set<string>();
    setExits(new Map());
    const unsubscribe = subscribeLedger(groupId, LIFECYCLE_KINDS, (event) => {
      const actorId = lifecycleActorId(event);
      if (actorId !== null) touched.add(actorId);
      setExits((m) => applyLifecycle(m, [event]));
    });
    api.ledger_tail(groupId, { kinds: LIFECYCLE_KINDS, limit: 200 }).then(
      (page) => {
        if (!live) return;
        const older = applyLifecycle(new Map(), page.events);
        setExits((m) => {
          const merged = new Map(m);
          for (const [id, exit] of older) if (!touched.has(id)) merged.set(id, exit);
          return merged;
        });
      },
      () => undefined, // the cards still show start failures; exits are a detail
    );
    return () => {
      live = false;
      unsubscribe();
    };
  }, [groupId]);
  return exits;
}
