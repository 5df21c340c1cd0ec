import { z } from 'zod';
import { MessageMode } from '../kinds/chat.js';
import { defineOp } from './define.js';
import { CCCSEventV1 } from '../events.js';
import { SendResult } from './messaging.js';
import { ByArg, GroupIdArg, InsightArg, ReferenceV1, eventResult, legacyMessageFields } from './shared.js';

// §8.6 ops around an existing or future chat.message: upload preflight, reply-obligation
// cancellation and explicit delivery.

/**
 * The operation-dependent keys (§8.6) are checked here so a Web port gets the same
 * invalid_request + details.field answer the eventual send/reply/send_cross_group would give.
 */
export const message_upload_preflight = defineOp({
  summary: 'Validate a staged Web upload against the canonical send/reply rules (no side effects).',
  rejectedArgs: legacyMessageFields,
  args: () => z
    .object({
      operation: z.enum(['send', 'reply', 'send_cross_group']),
      group_id: GroupIdArg,
      dst_group_id: z.string().optional(),
      text: z.string().optional(),
      by: ByArg,
      to: z.array(z.string()).optional(),
      message_mode: MessageMode,
      reply_to: z.string().optional(),
      path: z.string().optional(),
      client_id: z.string().optional(),
      refs: z.array(ReferenceV1).optional(),
      insight: InsightArg,
      require_peer_insight: z.boolean().optional(),
      /** Temporary upload parts exist; there are no blob refs yet. */
      has_attachments: z.boolean(),
    })
    .superRefine((args, ctx) => {
      if (args.operation === 'send_cross_group' && !args.dst_group_id)
        ctx.addIssue({
          code: 'custom',
          path: ['dst_group_id'],
          message: 'required when operation is send_cross_group',
        });
      if (args.operation === 'reply' && !args.reply_to)
        ctx.addIssue({ code: 'custom', path: ['reply_to'], message: 'required when operation is reply' });
      if (args.operation === 'reply' && args.message_mode === 'request_reply')
        ctx.addIssue({ code: 'custom', path: ['message_mode'], message: 'a reply uses send or mail' });
    }),
  result: () => z.union([
    z.object({ ready: z.literal(true) }),
    /** send/reply whose client_id already names an accepted message: the original result. */
    z.object({ ready: z.literal(false), duplicate: z.literal(true), result: SendResult }),
  ]),
});

/** Only the source sender or user may cancel; repeating it is a no-op success. */
export const reply_request_cancel = defineOp({
  summary: 'Cancel every still-open recipient obligation of a request_reply message.',
  args: () => z.object({ group_id: GroupIdArg, source_event_id: z.string().min(1), by: ByArg }),
  result: () => eventResult('chat.reply_request.cancelled'),
});

/**
 * Terminal per-recipient states arrive later as runtime.delivery events; the response only
 * confirms that every claim was recorded. `event` stays an untyped kind: the spec does not say
 * whether it is the source message or a claim record.
 */
export const message_deliver = defineOp({
  summary: 'Explicitly attempt prompt delivery of an existing message (promote Mail, retry Send).',
  args: () => z.object({
    group_id: GroupIdArg,
    source_event_id: z.string().min(1),
    actor_ids: z.array(z.string().min(1)).min(1),
    by: ByArg,
    force_ambiguous: z.boolean().optional(),
  }),
  result: () => z.object({ event: CCCSEventV1, actor_ids: z.array(z.string()), delivery_state: z.literal('claimed') }),
});
