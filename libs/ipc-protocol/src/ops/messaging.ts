import { z } from 'zod';
import { AttachmentRefV1, MessageMode } from '../kinds/chat.js';
import { defineOp } from './define.js';
import {
  ByArg,
  GroupIdArg,
  InsightArg,
  ReferenceV1,
  ReplyMessageMode,
  eventOfKind,
  legacyMessageFields,
} from './shared.js';

// §8.6 Chat Messaging: the ops that append a new chat.message. Audience, Mail, request_reply,
// empty-message and Insight rules need group state, so they live in the messaging lib and
// answer with their own codes; these schemas hold only what a request line alone decides.

export const ChatMessageEvent = eventOfKind('chat.message');
const Recipients = z.array(z.string());

/** `{ event, message_mode }`: ledger acceptance plus the canonical mode, not delivery proof. */
export const SendResult = z.object({ event: ChatMessageEvent, message_mode: MessageMode });

/** Relay provenance travels as a pair (§8.6): one without the other names the missing key. */
function requireBothSrc(
  args: { src_group_id?: string | undefined; src_event_id?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (args.src_group_id && !args.src_event_id)
    ctx.addIssue({ code: 'custom', path: ['src_event_id'], message: 'required with src_group_id' });
  if (args.src_event_id && !args.src_group_id)
    ctx.addIssue({ code: 'custom', path: ['src_group_id'], message: 'required with src_event_id' });
}

/** `client_id` is not in the "Args (core)" list, but send is idempotent on it (§8.6 preflight, CCCS). */
export const send = defineOp({
  summary: 'Append a chat.message and attempt prompt delivery (send/request_reply) or store it as Mail.',
  rejectedArgs: legacyMessageFields,
  args: () => z
    .object({
      group_id: GroupIdArg,
      text: z.string(),
      by: ByArg,
      to: Recipients.optional(),
      message_mode: MessageMode,
      path: z.string().optional(),
      attachments: z.array(AttachmentRefV1).optional(),
      refs: z.array(ReferenceV1).optional(),
      insight: InsightArg,
      require_peer_insight: z.boolean().optional(),
      src_group_id: z.string().optional(),
      src_event_id: z.string().optional(),
      dst_group_id: z.string().optional(),
      dst_to: Recipients.optional(),
      dst_message_mode: MessageMode.optional(),
      client_id: z.string().optional(),
    })
    .superRefine(requireBothSrc),
  result: () => SendResult,
});

export const send_files = defineOp({
  summary: 'Store files from the active scope as blobs and append one chat.message carrying them.',
  rejectedArgs: legacyMessageFields,
  args: () => z.object({
    group_id: GroupIdArg,
    /** Absolute, or relative to the active scope root; each must be a regular file inside it. */
    paths: z.array(z.string().min(1)).min(1),
    text: z.string().optional(),
    by: ByArg,
    to: Recipients.optional(),
    message_mode: MessageMode,
    insight: InsightArg,
    client_id: z.string().optional(),
  }),
  result: () => SendResult,
});

/**
 * `message_mode` excludes request_reply (a reply cannot open another obligation), so the router
 * answers invalid_request with details.field "message_mode"; the spec names no other code.
 */
export const reply = defineOp({
  summary: 'Append a chat.message answering reply_to (fulfils its reply obligation).',
  rejectedArgs: legacyMessageFields,
  args: () => z.object({
    group_id: GroupIdArg,
    reply_to: z.string().min(1),
    text: z.string(),
    by: ByArg,
    to: Recipients.optional(),
    message_mode: ReplyMessageMode.optional(),
    attachments: z.array(AttachmentRefV1).optional(),
    refs: z.array(ReferenceV1).optional(),
    insight: InsightArg,
    require_peer_insight: z.boolean().optional(),
    client_id: z.string().optional(),
  }),
  result: () => z.object({ event: ChatMessageEvent, message_mode: ReplyMessageMode }),
});

/**
 * Local cross-group forwarding rejects attachments (§8.6): `attachments` is refused with the
 * legacy fields instead of being silently dropped like an unknown key.
 */
export const send_cross_group = defineOp({
  summary: 'Write a source record here and a forwarded chat.message in dst_group_id.',
  rejectedArgs: { keys: [...legacyMessageFields.keys, 'attachments'], code: legacyMessageFields.code },
  args: () => z.object({
    group_id: GroupIdArg,
    dst_group_id: GroupIdArg,
    text: z.string(),
    by: ByArg,
    to: Recipients.optional(),
    message_mode: MessageMode,
    insight: InsightArg,
    require_peer_insight: z.boolean().optional(),
  }),
  result: () => z.object({ src_event: ChatMessageEvent, dst_event: ChatMessageEvent }),
});
