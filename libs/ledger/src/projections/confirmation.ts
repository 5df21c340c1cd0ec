import { DELIVERY_CONFIRMATION_KIND, isEventOfKind, type DeliveryConfirmationState } from '@cccc/ipc-protocol';
import type { LedgerEvent } from '../types.js';

export { DELIVERY_CONFIRMATION_KIND };
export type ConfirmationState = DeliveryConfirmationState;

/** Latest confirmation of one recipient's delivery of a source event. */
export interface ConfirmationFact {
  actor_id: string;
  source_event_id: string;
  delivery_id: string;
  state: ConfirmationState;
}

/** Latest `x.cccc.delivery_confirmation` per recipient of one source event, by append order. */
export function deliveryConfirmationsOf(events: readonly LedgerEvent[], sourceEventId: string): ConfirmationFact[] {
  const latest = new Map<string, ConfirmationFact>();
  for (const e of events) {
    if (!isEventOfKind(e, DELIVERY_CONFIRMATION_KIND) || e.data.source_event_id !== sourceEventId) continue;
    const { actor_id, delivery_id, state } = e.data;
    latest.set(actor_id, { actor_id, source_event_id: sourceEventId, delivery_id, state });
  }
  return [...latest.values()].sort((a, b) => (a.actor_id < b.actor_id ? -1 : a.actor_id > b.actor_id ? 1 : 0));
}
