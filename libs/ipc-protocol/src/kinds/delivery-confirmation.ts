import { z } from 'zod';

/**
 * `x.cccc.delivery_confirmation` (vendor kind, daemon-only): after an `accepted` PTY delivery to
 * a hooked runtime, the runtime's next fenced UserPromptSubmit confirms it; none within the
 * window records it unconfirmed (typed but maybe not submitted). Never triggers a resubmission.
 */
export { DELIVERY_CONFIRMATION_KIND } from './delivery-confirmation-kind.js';

export const DeliveryConfirmationState = z.enum(['confirmed', 'unconfirmed']);
export type DeliveryConfirmationState = z.infer<typeof DeliveryConfirmationState>;

export const DeliveryConfirmationData = z.looseObject({
  actor_id: z.string().min(1),
  source_event_id: z.string().min(1),
  delivery_id: z.string().regex(/^delivery:.+:[0-9a-f]{24}$/, 'delivery_id is "delivery:<aid>:<24 hex>"'),
  state: DeliveryConfirmationState,
  /** What decided it: the hook event that confirmed, or the window that ran out. */
  evidence: z.string().min(1),
  /** accepted → UserPromptSubmit taken by the daemon, in ms; null when unconfirmed. */
  latency_ms: z.number().int().nonnegative().nullable(),
  /**
   * accepted → the agent running its UserPromptSubmit hook (the hook's start), in ms: the
   * agent's own part of `latency_ms`, without the hook's start-up and transport. Absent when
   * the hook did not say when it started.
   */
  prompt_hook_ms: z.number().int().nonnegative().nullable().optional(),
});
export type DeliveryConfirmationData = z.infer<typeof DeliveryConfirmationData>;
