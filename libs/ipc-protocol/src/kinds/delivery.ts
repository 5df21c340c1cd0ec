import { z } from 'zod';

/** `runtime.delivery` (daemon-only evidence of one recipient handoff, CCCS notes). */
export const DeliveryState = z.enum(['claimed', 'accepted', 'failed', 'ambiguous']);
export type DeliveryState = z.infer<typeof DeliveryState>;

export const RuntimeDeliveryData = z.looseObject({
  actor_id: z.string().min(1),
  source_event_id: z.string().min(1),
  delivery_id: z.string().regex(/^delivery:.+:[0-9a-f]{24}$/, 'delivery_id is "delivery:<aid>:<24 hex>"'),
  state: DeliveryState,
  transport: z.string().min(1),
  reason: z.string().nullish(),
});
export type RuntimeDeliveryData = z.infer<typeof RuntimeDeliveryData>;
