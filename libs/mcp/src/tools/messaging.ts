import { z } from 'zod';
import { NotifyPriority, ReferenceV1 } from '@cccc/ipc-protocol';
import { callOp } from '../daemon-port.js';
import { defineTool } from '../tool.js';

// Tools that append to the ledger. Every call sets group_id/by from the identity; agent sends
// always ask the daemon for the peer-insight gate (REFERENCE_NOTES §7).

const Recipients = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
const toList = (to: string | string[]) => (Array.isArray(to) ? to : [to]);
const WRITE = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const;

const Insight = z.string().max(1200).describe('Your provisional higher-order perspective; required when the message goes to agents.');

export const messageSend = defineTool({
  name: 'cccc_message_send',
  description:
    'Send a chat message. mode defaults to "mail" (stored for the recipients to read; wakes no one); "send" delivers to their runtime now; "request_reply" also opens a reply obligation. Mail cannot go to "user".',
  input: z.object({
    to: Recipients.describe('Recipient actor id(s), "user", or selectors such as "@foreman".'),
    text: z.string(),
    mode: z.enum(['mail', 'send', 'request_reply']).default('mail'),
    insight: Insight.optional(),
    refs: z.array(ReferenceV1).optional(),
    idempotency_key: z.string().min(1).optional().describe('Repeating a send with the same key returns the first receipt.'),
  }),
  annotations: { ...WRITE, idempotentHint: false },
  run: ({ identity, daemon }, args) =>
    callOp(daemon, 'send', {
      group_id: identity.groupId,
      by: identity.actorId,
      to: toList(args.to),
      text: args.text,
      message_mode: args.mode,
      ...(args.insight !== undefined ? { insight: args.insight } : {}),
      ...(args.refs ? { refs: args.refs } : {}),
      ...(args.idempotency_key ? { client_id: args.idempotency_key } : {}),
      require_peer_insight: true,
    }),
});

export const messageReply = defineTool({
  name: 'cccc_message_reply',
  description: 'Reply to a message (fulfils its reply obligation). mode "send" (default) delivers now; "mail" stores it.',
  input: z.object({
    event_id: z.string().min(1),
    text: z.string(),
    mode: z.enum(['send', 'mail']).optional(),
    insight: Insight.optional(),
    to: Recipients.optional().describe('Defaults to the original sender.'),
  }),
  annotations: { ...WRITE, idempotentHint: false },
  run: ({ identity, daemon }, args) =>
    callOp(daemon, 'reply', {
      group_id: identity.groupId,
      by: identity.actorId,
      reply_to: args.event_id,
      text: args.text,
      message_mode: args.mode ?? 'send',
      ...(args.to ? { to: toList(args.to) } : {}),
      ...(args.insight !== undefined ? { insight: args.insight } : {}),
      require_peer_insight: true,
    }),
});

export const messageDeliver = defineTool({
  name: 'cccc_message_deliver',
  description: 'Attempt prompt delivery of an existing message to actors now (promote Mail, retry a Send).',
  input: z.object({ event_id: z.string().min(1), to: Recipients }),
  annotations: { ...WRITE, idempotentHint: false },
  run: ({ identity, daemon }, args) =>
    callOp(daemon, 'message_deliver', {
      group_id: identity.groupId,
      by: identity.actorId,
      source_event_id: args.event_id,
      actor_ids: toList(args.to),
    }),
});

export const replyRequestCancel = defineTool({
  name: 'cccc_reply_request_cancel',
  description: 'Cancel the open reply obligations of a request_reply message you sent (repeating is a no-op).',
  input: z.object({ event_id: z.string().min(1) }),
  annotations: { ...WRITE, idempotentHint: true },
  run: ({ identity, daemon }, args) =>
    callOp(daemon, 'reply_request_cancel', { group_id: identity.groupId, by: identity.actorId, source_event_id: args.event_id }),
});

export const fileSend = defineTool({
  name: 'cccc_file_send',
  description: 'Send files from the active scope as attachments of one message (mode defaults to "mail").',
  input: z.object({
    path: z.string().min(1).optional(),
    paths: z.array(z.string().min(1)).min(1).optional(),
    to: Recipients,
    text: z.string().optional(),
    mode: z.enum(['mail', 'send', 'request_reply']).default('mail'),
    insight: Insight.optional(),
    idempotency_key: z.string().min(1).optional(),
  }),
  annotations: { ...WRITE, idempotentHint: false },
  run: ({ identity, daemon }, args) =>
    callOp(daemon, 'send_files', {
      group_id: identity.groupId,
      by: identity.actorId,
      paths: [...(args.path ? [args.path] : []), ...(args.paths ?? [])],
      to: toList(args.to),
      ...(args.text !== undefined ? { text: args.text } : {}),
      message_mode: args.mode,
      ...(args.insight !== undefined ? { insight: args.insight } : {}),
      ...(args.idempotency_key ? { client_id: args.idempotency_key } : {}),
    }),
});

export const notify = defineTool({
  name: 'cccc_notify',
  description: 'Post a system notification to the group (not a chat message; nobody has to answer it).',
  input: z.object({ title: z.string().optional(), message: z.string().min(1), priority: NotifyPriority.optional() }),
  annotations: { ...WRITE, idempotentHint: false },
  run: ({ identity, daemon }, args) =>
    callOp(daemon, 'system_notify', {
      group_id: identity.groupId,
      by: identity.actorId,
      message: args.message,
      ...(args.title !== undefined ? { title: args.title } : {}),
      ...(args.priority ? { priority: args.priority } : {}),
    }),
});
