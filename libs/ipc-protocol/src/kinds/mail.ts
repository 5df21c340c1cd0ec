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

/**
 * Legacy `chat.read` (pre-`mail.read` ledgers): read by recovery only, as an inclusive
 * watermark of the actor's generation (spec §8.6 runtime.delivery recovery). Never written.
 */
export const LegacyChatReadData = z.looseObject({ actor_id: z.string(), event_id: z.string().min(1) });
export type LegacyChatReadData = z.infer<typeof LegacyChatReadData>;
