import { z } from 'zod';
import { CCCSEventV1 } from '../events.js';
import { defineOp } from './define.js';
import { ActorIdArg, ByArg, GroupIdArg, LimitArg, eventOfKind } from './shared.js';

// §8.7 Inbox (Mail cursor) and the non-consuming message history. All three views are per
// actor, so actor_id is required and its absence is missing_actor_id.

const InboxArgs = z.object({ group_id: GroupIdArg, actor_id: ActorIdArg, by: ByArg, limit: LimitArg.optional() });

/** Mail cursor position; `updated_at` is only written by a consuming read. */
export const MailCursor = z.object({ event_id: z.string(), ts: z.string() });

export const inbox_peek = defineOp({
  summary: "Return an actor's unread Mail without moving its cursor.",
  args: () => InboxArgs,
  result: () => z.object({ messages: z.array(CCCSEventV1), cursor: MailCursor }),
});

/** `event` is the mail.read commit record, or null for an empty Inbox (cursor unchanged). */
export const inbox_read = defineOp({
  summary: 'Atomically return and consume the next unread Mail prefix of an actor.',
  args: () => InboxArgs,
  result: () => z.object({
    messages: z.array(CCCSEventV1),
    cursor: MailCursor.extend({ updated_at: z.string() }),
    event: eventOfKind('mail.read').nullable(),
  }),
});

/** Newest-first, current actor generation only, sent by or addressed to the actor. */
export const message_history = defineOp({
  summary: 'Read an actor-visible, non-consuming history of chat.message events.',
  args: () => z.object({
    group_id: GroupIdArg,
    actor_id: ActorIdArg,
    by: ByArg,
    mode: z.enum(['all', 'send', 'request_reply', 'mail']).optional(),
    query: z.string().optional(),
    before_event_id: z.string().optional(),
    limit: LimitArg.optional(),
  }),
  result: () => z.object({ messages: z.array(CCCSEventV1), has_more: z.boolean() }),
});
