import { z } from 'zod';

/** `mail.read`: an inclusive Mail watermark written only by a consuming Inbox read (spec §8.7). */
export const MailReadData = z.looseObject({
  actor_id: z
    .string()
    .min(1)
    .refine((v) => v !== 'user', 'actor_id "user" is invalid for mail.read'),
  event_id: z.string().min(1),
});
export type MailReadData = z.infer<typeof MailReadData>;
