import type { AttachmentRefV1, ChatMessageData, EventOf, SystemNotifyData } from '@cccc/ipc-protocol';
import { groupError } from './errors.js';
import type { CrossGroupOutgoing, Outgoing } from './outgoing.js';
import { assertKnownSender } from './principals.js';
import type { MessageMode } from './recipients.js';
import type { GroupDoc } from './schemas/group.js';

type ChatEvent = EventOf<'chat.message'>;

/** REFERENCE_NOTES §1.3: a reply quotes the original text, capped at 100 characters plus "...". */
export function quoteOf(text: string, maxChars = 100): string {
  const chars = [...text];
  return chars.length <= maxChars ? text : chars.slice(0, maxChars).join('') + '...';
}

/** Every field a message op writes into a new chat.message, besides `format`. */
export interface ChatMessageFields {
  readonly text: string;
  readonly to: readonly string[];
  readonly message_mode: MessageMode;
  readonly reply_to?: string | undefined;
  readonly quote_text?: string | undefined;
  readonly insight?: string | null | undefined;
  readonly attachments?: readonly AttachmentRefV1[] | undefined;
  readonly refs?: readonly unknown[] | undefined;
  readonly src_group_id?: string | undefined;
  readonly src_event_id?: string | undefined;
  readonly src_by?: string | undefined;
  readonly dst_group_id?: string | undefined;
  readonly dst_to?: readonly string[] | undefined;
  readonly dst_message_mode?: MessageMode | undefined;
  readonly client_id?: string | undefined;
}

/** The optional fields in their written order. */
const OPTIONAL_KEYS = [
  'reply_to',
  'quote_text',
  'insight',
  'attachments',
  'refs',
  'src_group_id',
  'src_event_id',
  'src_by',
  'dst_group_id',
  'dst_to',
  'dst_message_mode',
  'client_id',
] as const satisfies readonly (keyof ChatMessageFields)[];

/**
 * chat.message data in one key order, plain format. Optional fields are omitted rather than
 * written as null or [] (except `to`, always present): a null insight, an undefined value or
 * an empty array goes.
 */
export function chatMessageData(f: ChatMessageFields): ChatMessageData {
  const data: Record<string, unknown> = { text: f.text, format: 'plain', to: [...f.to], message_mode: f.message_mode };
  // A fixed key list, not a throwaway object and its entries: this runs on every send.
  for (const key of OPTIONAL_KEYS) {
    const value = key === 'insight' ? (f.insight ?? undefined) : f[key];
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) data[key] = value;
  }
  return data as ChatMessageData;
}

/** What a send-like request contributes to its message besides routing and insight. */
export interface MessageContent {
  readonly text: string;
  readonly message_mode: MessageMode;
  readonly attachments?: readonly AttachmentRefV1[] | undefined;
  readonly refs?: readonly unknown[] | undefined;
  readonly client_id?: string | undefined;
  /** A relayed send names where it came from or goes to (§8.6 send). */
  readonly src_group_id?: string | undefined;
  readonly src_event_id?: string | undefined;
  readonly dst_group_id?: string | undefined;
  readonly dst_to?: readonly string[] | undefined;
  readonly dst_message_mode?: MessageMode | undefined;
}

/** The data of a validated new message (send, send_files). */
export function messageData(content: MessageContent, out: Outgoing): ChatMessageData {
  return chatMessageData({
    text: content.text,
    to: out.routing.to,
    message_mode: content.message_mode,
    insight: out.insight,
    attachments: content.attachments,
    refs: content.refs,
    src_group_id: content.src_group_id,
    src_event_id: content.src_event_id,
    dst_group_id: content.dst_group_id,
    dst_to: content.dst_to,
    dst_message_mode: content.dst_message_mode,
    client_id: content.client_id,
  });
}

/** The data of a validated reply to `source`, which it quotes. */
export function replyData(source: ChatEvent, content: Omit<MessageContent, `src_${string}` | `dst_${string}`>, out: Outgoing): ChatMessageData {
  return chatMessageData({
    text: content.text,
    to: out.routing.to,
    message_mode: content.message_mode,
    reply_to: source.id,
    quote_text: quoteOf(source.data.text),
    insight: out.insight,
    attachments: content.attachments,
    refs: content.refs,
    client_id: content.client_id,
  });
}

/** send_cross_group, source side: a record to the user of what went where. */
export function crossGroupSourceData(req: { text: string; message_mode: MessageMode; dst_group_id: string }, out: CrossGroupOutgoing): ChatMessageData {
  return chatMessageData({
    text: req.text,
    to: ['user'],
    message_mode: 'send',
    insight: out.insight,
    dst_group_id: req.dst_group_id,
    dst_to: out.routing.to,
    dst_message_mode: req.message_mode,
  });
}

/** send_cross_group, destination side: the forwarded message, naming its source record. */
export function crossGroupForwardData(
  req: { text: string; message_mode: MessageMode; by: string; src_group_id: string; src_event_id: string },
  out: CrossGroupOutgoing,
): ChatMessageData {
  return chatMessageData({
    text: req.text,
    to: out.routing.to,
    message_mode: req.message_mode,
    insight: out.insight,
    src_group_id: req.src_group_id,
    src_event_id: req.src_event_id,
    src_by: req.by,
  });
}

/** A message op's result: the message and its mode (a legacy row without one reads as `send`). */
export interface SentMessage {
  readonly event: ChatEvent;
  readonly message_mode: MessageMode;
}

/**
 * The answer for a message, fresh or replayed: a request whose `(by, client_id)` already names
 * an accepted message replays it, whatever changed in the group since (§8.6).
 */
export function sentMessage(event: ChatEvent): SentMessage {
  return { event, message_mode: event.data.message_mode ?? 'send' };
}

/**
 * A reply's answer. A reply is never request_reply, so only a client_id first used by such a
 * send can name one: that is a client error, not a replay.
 */
export function sentReply(event: ChatEvent): { event: ChatEvent; message_mode: 'send' | 'mail' } {
  const mode = event.data.message_mode ?? 'send';
  if (mode === 'request_reply') {
    throw groupError('invalid_request', 'client_id already names a request_reply message, which is not a reply', { field: 'client_id' });
  }
  return { event, message_mode: mode };
}

/** A system_notify request (§8.10); every field has a default. */
export interface NotifyRequest {
  readonly kind?: string | undefined;
  readonly priority?: SystemNotifyData['priority'];
  readonly title?: string | undefined;
  readonly message?: string | undefined;
  readonly target_actor_id?: string | null | undefined;
  readonly im_visibility?: SystemNotifyData['im_visibility'];
  readonly context?: Record<string, unknown> | undefined;
}

/**
 * A notification's data from a known sender: an info notice of normal priority, internal to the
 * group unless a producer opts in to public (IM bridges fail closed); `target_actor_id` null
 * broadcasts, an id must name an actor of the group.
 */
export function notifyData(group: GroupDoc, by: string, req: NotifyRequest): SystemNotifyData {
  assertKnownSender(group, by);
  const target = req.target_actor_id ?? null;
  if (target !== null && !group.actors.some((a) => a.id === target)) {
    throw groupError('actor_not_found', `no actor ${target} in this group`, { actor_id: target });
  }
  return {
    kind: req.kind ?? 'info',
    priority: req.priority ?? 'normal',
    title: req.title ?? '',
    message: req.message ?? '',
    target_actor_id: target,
    im_visibility: req.im_visibility ?? 'internal',
    context: req.context ?? {},
  };
}
