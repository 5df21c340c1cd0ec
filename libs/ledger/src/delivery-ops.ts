import { isEventOfKind } from '@cccc/ipc-protocol';
import { ledgerError, LedgerErrorCodes } from './errors.js';
import type { Decide } from './storage/appender.js';
import { assertSettleAllowed, claimRefusal, deliveryIdFor, type DeliveryFact } from './projections/delivery.js';
import type { ClaimRequest, SettleRequest } from './store.js';
import type { AppendInput, LedgerEvent } from './types.js';

/** Latest delivery fact for (source, actor), counting this batch's earlier events last. */
export function latestWith(
  committed: DeliveryFact | undefined,
  earlier: readonly LedgerEvent[],
  sourceEventId: string,
  actorId: string,
): DeliveryFact | undefined {
  let latest = committed;
  for (const e of earlier) {
    if (!isEventOfKind(e, 'runtime.delivery') || e.data.source_event_id !== sourceEventId || e.data.actor_id !== actorId) continue;
    const { delivery_id, state, transport } = e.data;
    latest = { actor_id: actorId, source_event_id: sourceEventId, delivery_id, state, transport, event_id: e.id };
  }
  return latest;
}

export function claimInput(groupId: string, req: ClaimRequest, createdAt: string): { input: AppendInput<'runtime.delivery'>; deliveryId: string } {
  const deliveryId = deliveryIdFor(groupId, req.actorId, createdAt, req.sourceEventId);
  return {
    deliveryId,
    input: {
      kind: 'runtime.delivery',
      by: 'system',
      data: { actor_id: req.actorId, source_event_id: req.sourceEventId, delivery_id: deliveryId, state: 'claimed', transport: req.transport, reason: null },
    },
  };
}

/** Decision run under the writer lock: a claim is appended only if the state machine allows. */
export function claimDecision(req: ClaimRequest, latestCommitted: () => DeliveryFact | undefined): Decide {
  return ({ earlier }) => {
    const latest = latestWith(latestCommitted(), earlier, req.sourceEventId, req.actorId);
    const refusal = claimRefusal(latest?.state, req.forceAmbiguous ?? false);
    return refusal && latest ? { write: false, answer: { refusal, latest } } : { write: true };
  };
}

export function settleInput(req: SettleRequest, latest: DeliveryFact | undefined): AppendInput<'runtime.delivery'> {
  if (!latest) throw ledgerError(LedgerErrorCodes.illegalDeliveryTransition, `no delivery claim for ${req.actorId} on ${req.sourceEventId}`);
  return {
    kind: 'runtime.delivery',
    by: 'system',
    data: {
      actor_id: req.actorId,
      source_event_id: req.sourceEventId,
      delivery_id: latest.delivery_id,
      state: req.state,
      transport: latest.transport,
      reason: req.reason ?? null,
    },
  };
}

export function settleDecision(req: SettleRequest, latestCommitted: () => DeliveryFact | undefined): Decide {
  return ({ earlier }) => {
    const latest = latestWith(latestCommitted(), earlier, req.sourceEventId, req.actorId);
    assertSettleAllowed(latest?.state, req.state, latest?.delivery_id ?? '');
    return { write: true };
  };
}
