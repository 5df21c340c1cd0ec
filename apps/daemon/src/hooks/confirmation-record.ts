import type { LedgerPool } from '../kernel/ledger-pool.js';
import { errorFields, type Logger } from '../log.js';
import type { ConfirmationOutcome } from './delivery-confirmations.js';

/** Records each confirmation outcome as an `x.cccc.delivery_confirmation` event; a failure is logged, never thrown. */
export function confirmationRecorder(ledgers: Pick<LedgerPool, 'append'>, logger: Logger): (outcome: ConfirmationOutcome) => void {
  return (o) => {
    ledgers
      .append(o.groupId, {
        kind: 'x.cccc.delivery_confirmation',
        by: 'system',
        data: {
          actor_id: o.actorId,
          source_event_id: o.item.sourceEventId,
          delivery_id: o.item.deliveryId,
          state: o.state,
          evidence: o.evidence,
          latency_ms: o.latencyMs,
          ...(o.promptHookMs === undefined || o.promptHookMs === null ? {} : { prompt_hook_ms: Math.round(o.promptHookMs) }),
        },
      })
      .catch((error: unknown) => {
        logger.log('warn', 'could not record a delivery confirmation', { group_id: o.groupId, actor_id: o.actorId, ...errorFields(error) });
      });
  };
}
