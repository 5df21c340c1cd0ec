import { createHash } from 'node:crypto';
import { isEventOfKind, type DeliveryState } from '@cccc/ipc-protocol';
import { ledgerError, LedgerErrorCodes } from '../errors.js';
import type { LedgerEvent } from '../types.js';

/** Reference formula: retries of one (source, actor generation, recipient) reuse the id. */
export function deliveryIdFor(groupId: string, actorId: string, actorCreatedAt: string, sourceEventId: string): string {
  const digest = createHash('sha256').update([groupId, actorId, actorCreatedAt, sourceEventId].join('\0'), 'utf8').digest('hex');
  return `delivery:${actorId}:${digest.slice(0, 24)}`;
}

export interface DeliveryFact {
  actor_id: string;
  source_event_id: string;
  delivery_id: string;
  state: DeliveryState;
  transport: string;
  /** The runtime.delivery event that recorded this state. */
  event_id: string;
}

/** Why a claim may not be made now, or undefined when it may. */
export type ClaimRefusal = 'in_progress' | 'already_accepted' | 'ambiguous';

/**
 * claimed → accepted | failed | ambiguous. A new claim is allowed on no evidence or after a
 * proven `failed`; `claimed` means someone is in progress; `accepted` is never retried and
 * `ambiguous` only when the caller forces it.
 */
export function claimRefusal(latest: DeliveryState | undefined, forceAmbiguous: boolean): ClaimRefusal | undefined {
  if (latest === undefined || latest === 'failed') return undefined;
  if (latest === 'claimed') return 'in_progress';
  if (latest === 'accepted') return 'already_accepted';
  return forceAmbiguous ? undefined : 'ambiguous';
}

export function assertSettleAllowed(latest: DeliveryState | undefined, next: DeliveryState, deliveryId: string): void {
  if (next === 'claimed') throw ledgerError(LedgerErrorCodes.illegalDeliveryTransition, 'settle needs an outcome, not claimed');
  if (latest !== 'claimed') {
    throw ledgerError(LedgerErrorCodes.illegalDeliveryTransition, `cannot move delivery ${deliveryId} from ${latest ?? 'nothing'} to ${next}`, {
      delivery_id: deliveryId,
      from: latest ?? null,
      to: next,
    });
  }
}

/** Latest delivery fact per recipient of one source event, by append order. */
export function deliveryStatesOf(events: readonly LedgerEvent[], sourceEventId: string): DeliveryFact[] {
  const latest = new Map<string, DeliveryFact>();
  for (const e of events) {
    if (!isEventOfKind(e, 'runtime.delivery') || e.data.source_event_id !== sourceEventId) continue;
    const { actor_id, delivery_id, state, transport } = e.data;
    latest.set(actor_id, { actor_id, source_event_id: sourceEventId, delivery_id, state, transport, event_id: e.id });
  }
  return [...latest.values()].sort((a, b) => (a.actor_id < b.actor_id ? -1 : a.actor_id > b.actor_id ? 1 : 0));
}

