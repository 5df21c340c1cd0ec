import { ActorAddData, ActorRemoveData } from '@cccc/ipc-protocol';

/** The minimal ledger event shape generation tracking needs (plain data; no ledger dependency). */
export interface ActorLifecycleEvent {
  id: string;
  kind: string;
  ts?: string;
  data?: unknown;
}

export interface ActorGeneration {
  actor_id: string;
  /** The `actor.add` event that started the current generation. */
  add_event_id: string;
  add_ts: string;
  /** Position of that event in the sequence given (append order). */
  add_index: number;
}

/** The actor an actor.add / actor.remove names; its data is checked by the kind's schema. */
function actorIdOf(event: ActorLifecycleEvent): string | undefined {
  if (event.kind === 'actor.add') {
    const add = ActorAddData.safeParse(event.data);
    return add.success ? add.data.actor.id : undefined;
  }
  const remove = ActorRemoveData.safeParse(event.data);
  return remove.success ? remove.data.actor_id : undefined;
}

/**
 * Current generation per actor from events in append order: the latest `actor.add` starts it,
 * a later `actor.remove` ends it (the actor then has no current generation).
 */
export function currentGenerations(events: Iterable<ActorLifecycleEvent>): Map<string, ActorGeneration> {
  const out = new Map<string, ActorGeneration>();
  let index = 0;
  for (const event of events) {
    if (event.kind === 'actor.add' || event.kind === 'actor.remove') {
      const actorId = actorIdOf(event);
      if (actorId !== undefined) {
        if (event.kind === 'actor.add') out.set(actorId, { actor_id: actorId, add_event_id: event.id, add_ts: event.ts ?? '', add_index: index });
        else out.delete(actorId);
      }
    }
    index += 1;
  }
  return out;
}

/** Does an event at `eventIndex` belong to the actor's current generation (strictly after its add)? */
export function isInGeneration(generation: ActorGeneration | undefined, eventIndex: number): boolean {
  return generation !== undefined && eventIndex > generation.add_index;
}
