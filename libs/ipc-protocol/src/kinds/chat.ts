import { z } from 'zod';

/**
 * `chat.message` data (CCCS v1 notes, REFERENCE_NOTES §1.3). The reference forbids extra fields
 * on write, but readers must ignore unknown fields, so the schema is loose: it validates the
 * fields the kernel relies on and preserves everything else.
 */
export const MessageMode = z.enum(['send', 'request_reply', 'mail']);
export type MessageMode = z.infer<typeof MessageMode>;

export const AttachmentRefV1 = z.looseObject({
  kind: z.enum(['text', 'image', 'file']).optional(),
  path: z.string().min(1),
  title: z.string().optional(),
  mime_type: z.string().optional(),
  bytes: z.number().int().nonnegative().optional(),
  sha256: z.string().optional(),
});
export type AttachmentRefV1 = z.infer<typeof AttachmentRefV1>;

export const ChatMessageData = z.looseObject({
  text: z.string(),
  format: z.enum(['plain', 'markdown']).optional(),
  insight: z.string().max(1200).nullish(),
  /** null/absent only on legacy rows, which create no obligations. */
  message_mode: MessageMode.nullish(),
  to: z.array(z.string()).nullish(),
  reply_to: z.string().nullish(),
  quote_text: z.string().nullish(),
  /** Snapshots of an IM sender, shown in the delivered header. */
  source_platform: z.string().nullish(),
  source_user_name: z.string().nullish(),
  source_user_id: z.string().nullish(),
  src_group_id: z.string().nullish(),
  src_event_id: z.string().nullish(),
  attachments: z.array(AttachmentRefV1).nullish(),
  refs: z.array(z.unknown()).nullish(),
  client_id: z.string().nullish(),
});
export type ChatMessageData = z.infer<typeof ChatMessageData>;
