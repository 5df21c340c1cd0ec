import { z } from 'zod';

/** `system.notify`: an open `kind` set; no acknowledgement protocol. */
export const NotifyPriority = z.enum(['low', 'normal', 'high', 'urgent']);

export const SystemNotifyData = z.looseObject({
  kind: z.string().min(1),
  priority: NotifyPriority.optional(),
  title: z.string().nullish(),
  message: z.string().nullish(),
  target_actor_id: z.string().nullish(),
  im_visibility: z.enum(['internal', 'public']).optional(),
  context: z.record(z.string(), z.unknown()).nullish(),
  related_event_id: z.string().nullish(),
  /** Legacy notices name the event they are about here (read by delivery recovery). */
  event_id: z.string().nullish(),
});
export type SystemNotifyData = z.infer<typeof SystemNotifyData>;
