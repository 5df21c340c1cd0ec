import { z } from 'zod';
import type { ImInboundMessage } from '../../adapter.js';

/** Pure pieces of the Discord gateway protocol (v10, JSON encoding). */

export const GatewayOp = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  Resume: 6,
  Reconnect: 7,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
} as const;

/** GUILD_MESSAGES | DIRECT_MESSAGES | MESSAGE_CONTENT (the last is privileged: enable it in the portal). */
export const GATEWAY_INTENTS = (1 << 9) | (1 << 12) | (1 << 15);

export const gatewayPayloadSchema = z.object({
  op: z.number().int(),
  d: z.unknown().optional(),
  s: z.number().int().nullable().optional(),
  t: z.string().nullable().optional(),
});
export type GatewayPayload = z.infer<typeof gatewayPayloadSchema>;

export const helloSchema = z.object({ heartbeat_interval: z.number().positive() });
export const readySchema = z.object({
  session_id: z.string().min(1),
  resume_gateway_url: z.string().min(1),
  user: z.object({ id: z.string().min(1) }),
});

export function parseGatewayPayload(raw: string): GatewayPayload | null {
  try {
    const parsed = gatewayPayloadSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** What a gateway close code asks of us (https://discord.com/developers/docs/topics/opcodes-and-status-codes). */
export type CloseAction = 'resume' | 'identify' | 'auth_failed' | 'fatal';

export function closeAction(code: number): CloseAction {
  if (code === 4004) return 'auth_failed';
  // 4010 invalid shard, 4011 sharding required, 4012 invalid API version,
  // 4013 invalid intents, 4014 disallowed (privileged) intents: configuration, not weather.
  if (code >= 4010 && code <= 4014) return 'fatal';
  // 4007 invalid seq, 4009 session timed out: the session is gone, start a new one.
  if (code === 4007 || code === 4009) return 'identify';
  return 'resume';
}

/** The gateway URL with the version and encoding query Discord asks clients to send. */
export function gatewayConnectUrl(base: string): string {
  const url = new URL(base);
  url.searchParams.set('v', '10');
  url.searchParams.set('encoding', 'json');
  return url.toString();
}

const messageCreateSchema = z.object({
  id: z.string().min(1),
  channel_id: z.string().min(1),
  author: z.object({
    id: z.string().min(1),
    username: z.string(),
    global_name: z.string().nullable().optional(),
    bot: z.boolean().optional(),
  }),
  content: z.string(),
  timestamp: z.string(),
  type: z.number().int().optional(),
  webhook_id: z.string().optional(),
});

/** DEFAULT and REPLY; the rest are system notices (joins, pins, boosts, …). */
const USER_MESSAGE_TYPES = new Set([0, 19]);

/**
 * A MESSAGE_CREATE dispatch as an inbound message, or null for bots, webhooks, our own
 * posts, system notices and empty content (no MESSAGE_CONTENT intent, or attachments only).
 * Discord threads are channels, so a message in a thread arrives with the thread's channel id
 * as chat_id and thread_id 0; the message id is the update id.
 */
export function toInboundMessage(data: unknown, botUserId: string | undefined): ImInboundMessage | null {
  const parsed = messageCreateSchema.safeParse(data);
  if (!parsed.success) return null;
  const message = parsed.data;
  if (message.author.bot || message.webhook_id !== undefined || message.author.id === botUserId) return null;
  if (!USER_MESSAGE_TYPES.has(message.type ?? 0) || message.content.length === 0) return null;
  const tsMs = Date.parse(message.timestamp);
  return {
    platform: 'discord',
    chat_id: message.channel_id,
    thread_id: 0,
    update_id: message.id,
    from: { id: message.author.id, name: message.author.global_name ?? message.author.username },
    text: message.content,
    ts_ms: Number.isFinite(tsMs) ? tsMs : 0,
  };
}

const SNOWFLAKE = /^\d{1,20}$/;

/**
 * The channel to post into: a thread is a channel, so a non-zero thread_id (a snowflake
 * string) is the target and chat_id is only its parent. Snowflakes exceed 2^53, so a numeric
 * thread id cannot be trusted and is refused; ids are checked before they enter a URL path.
 */
export function outboundChannel(chatId: string, threadId: number | string): { channel: string } | { error: string } {
  if (!SNOWFLAKE.test(chatId)) return { error: 'invalid_chat_id' };
  if (threadId === 0 || threadId === '') return { channel: chatId };
  if (typeof threadId !== 'string' || !SNOWFLAKE.test(threadId)) return { error: 'invalid_thread_id' };
  return { channel: threadId };
}
