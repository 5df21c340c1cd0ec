import { DELIVERY_CONFIRMATION_KIND, type DeliveryConfirmationState } from '@cccc/ipc-protocol';
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

function isState(v: unknown): v is ConfirmationState {
  return v === 'confirmed' || v === 'unconfirmed';
}

/** Latest `x.cccc.delivery_confirmation` per recipient of one source event, by append order. */
export function deliveryConfirmationsOf(events: readonly LedgerEvent[], sourceEventId: string): ConfirmationFact[] {
  const latest = new Map<string, ConfirmationFact>();
  for (const e of events) {
    if (e.kind !== DELIVERY_CONFIRMATION_KIND || e.data['source_event_id'] !== sourceEventId) continue;
    const d = e.data;
    const actorId = d['actor_id'];
    if (typeof actorId !== 'string' || actorId === '' || !isState(d['state'])) continue;
    const deliveryId = typeof d['delivery_id'] === 'string' ? d['delivery_id'] : '';
    latest.set(actorId, { actor_id: actorId, source_event_id: sourceEventId, delivery_id: deliveryId, state: d['state'] });
  }
  return [...latest.values()].sort((a, b) => (a.actor_id < b.actor_id ? -1 : a.actor_id > b.actor_id ? 1 : 0));
}
