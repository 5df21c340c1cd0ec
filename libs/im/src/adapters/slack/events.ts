import { z } from 'zod';
import type { ImInboundMessage } from '../../adapter.js';

/**
 * Pure parsing of Socket Mode frames and Events API payloads into what the adapter acts on.
 * Frame shapes: https://api.slack.com/apis/socket-mode (hello, disconnect, envelopes with an
 * envelope_id that must be acknowledged).
 */

const helloSchema = z.object({ type: z.literal('hello') });
const disconnectSchema = z.object({ type: z.literal('disconnect'), reason: z.string().optional() });
const eventsApiSchema = z.object({
  type: z.literal('events_api'),
  envelope_id: z.string().min(1),
  retry_attempt: z.number().optional(),
  payload: z.object({ event_id: z.string().optional(), event: z.looseObject({ type: z.string() }) }),
});
/** slash_commands, interactive, …: acknowledged so Slack stops retrying, otherwise ignored. */
const otherEnvelopeSchema = z.object({ type: z.string(), envelope_id: z.string().min(1) });

const messageEventSchema = z.object({
  type: z.literal('message'),
  channel: z.string().min(1),
  user: z.string().min(1).optional(),
  text: z.string().optional(),
  ts: z.string().min(1),
  thread_ts: z.string().min(1).optional(),
  subtype: z.string().optional(),
  bot_id: z.string().optional(),
});
type MessageEvent = z.infer<typeof messageEventSchema>;

export type SocketFrame =
  | { readonly kind: 'hello' }
  | { readonly kind: 'disconnect'; readonly reason: string }
  | { readonly kind: 'envelope'; readonly envelopeId: string; readonly event: unknown }
  | { readonly kind: 'unknown' };

export function parseSocketFrame(raw: string): SocketFrame {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { kind: 'unknown' };
  }
  if (helloSchema.safeParse(json).success) return { kind: 'hello' };
  const disconnect = disconnectSchema.safeParse(json);
  if (disconnect.success) return { kind: 'disconnect', reason: disconnect.data.reason ?? 'unspecified' };
  const eventsApi = eventsApiSchema.safeParse(json);
  if (eventsApi.success) {
    return { kind: 'envelope', envelopeId: eventsApi.data.envelope_id, event: eventsApi.data.payload.event };
  }
  const other = otherEnvelopeSchema.safeParse(json);
  if (other.success) return { kind: 'envelope', envelopeId: other.data.envelope_id, event: undefined };
  return { kind: 'unknown' };
}

/** Slack's `ts` is "<unix seconds>.<6 digits>"; only ts_ms goes through a number, never the id. */
function tsToMs(ts: string): number {
  const ms = Math.round(Number(ts) * 1000);
  return Number.isFinite(ms) ? ms : 0;
}

/**
 * Subtypes that are still a person writing something new: a message with a file attached, a
 * thread reply also sent to the channel. The rest (message_changed, message_deleted,
 * bot_message, channel_join, …) are edits and notices, not new user input.
 */
const HUMAN_SUBTYPES = new Set([undefined, 'file_share', 'thread_broadcast']);

function isHumanMessage(event: MessageEvent, botUserId: string): event is MessageEvent & { user: string } {
  // Our own posts would otherwise loop back through the bridge.
  return (
    HUMAN_SUBTYPES.has(event.subtype) &&
    event.bot_id === undefined &&
    event.user !== undefined &&
    event.user !== botUserId &&
    (event.text ?? '').length > 0
  );
}

/**
 * Turns an Events API event into an inbound message, or null when it is not a new human
 * message. The update id is channel + ts: Slack's identity for a message, so every redelivery
 * of the same message (a retried envelope, a replay after reconnect) carries the same one.
 */
export function toInboundMessage(event: unknown, botUserId: string): ImInboundMessage | null {
  const parsed = messageEventSchema.safeParse(event);
  if (!parsed.success || !isHumanMessage(parsed.data, botUserId)) return null;
  const message = parsed.data;
  return {
    platform: 'slack',
    chat_id: message.channel,
    // thread_ts is kept as Slack's exact string; a top-level message has no thread (0).
    thread_id: message.thread_ts ?? 0,
    update_id: `${message.channel}:${message.ts}`,
    from: { id: message.user, name: message.user },
    text: message.text ?? '',
    ts_ms: tsToMs(message.ts),
  };
}

/** The outbound thread_ts: 0 or '' means "no thread"; a Slack ts is always a string. */
export function toThreadTs(threadId: number | string): string | undefined | null {
  if (threadId === 0 || threadId === '') return undefined;
  return typeof threadId === 'string' ? threadId : null;
}
