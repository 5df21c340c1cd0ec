import { isEventOfKind, type DeliveryState } from '@cccc/ipc-protocol';
import type { ActorRole, LedgerEvent } from '../types.js';
import { generationStart } from './generation.js';
import { isAddressedTo, messageMode } from './recipients.js';

/**
 * What may still owe a push to an actor when it starts (§8.6 recovery), from its current
 * generation (after its latest `actor.add`). A superset of the push audience the caller decides
 * with the group's current actors: this projection knows addressing, not enabled state.
 */
export interface UndeliveredView {
  /** The `actor.add` that starts the current generation; undefined when the ledger has none. */
  generationEventId: string | undefined;
  /**
   * In append order: chat.messages (not Mail) addressed to the actor by someone else, and
   * system.notify events targeting it or no one, whose latest delivery fact for the actor is
   * absent or `failed`.
   */
  events: LedgerEvent[];
  /** Every `chat.read` record of the generation, in append order: a legacy watermark the caller reads. */
  legacyReads: LedgerEvent[];
}

/** Is this event a candidate for a push to the actor (before the delivery facts are asked)? */
export function mayPushTo(event: LedgerEvent, actorId: string, role: ActorRole): boolean {
  if (isEventOfKind(event, 'system.notify')) {
    const target = event.data.target_actor_id;
    return !target || target === actorId;
  }
  return messageMode(event) !== 'mail' && isAddressedTo(event, actorId, role);
}

/** Whether a latest delivery state leaves the push owed: no evidence, or a proven failure. */
export function stillOwed(latest: DeliveryState | undefined): boolean {
  return latest === undefined || latest === 'failed';
}

/** The full-scan answer: one pass for the actor's delivery facts, one over its generation. */
export function undeliveredOf(events: readonly LedgerEvent[], actorId: string, role: ActorRole): UndeliveredView {
  const latest = new Map<string, DeliveryState>();
  for (const e of events) {
    if (isEventOfKind(e, 'runtime.delivery') && e.data.actor_id === actorId) latest.set(e.data.source_event_id, e.data.state);
  }
  const gen = generationStart(events, actorId);
  const view: UndeliveredView = { generationEventId: events[gen]?.id, events: [], legacyReads: [] };
  for (let i = gen + 1; i < events.length; i++) {
    const e = events[i] as LedgerEvent;
    if (e.kind === 'chat.read') view.legacyReads.push(e);
    else if (mayPushTo(e, actorId, role) && stillOwed(latest.get(e.id))) view.events.push(e);
  }
  return view;
}
