/**
 * The Discord adapter: the gateway WebSocket (v10, JSON) to receive and REST to send, on
 * fetch + `ws` — discord.js and @discordjs/ws bring caches, sharding and zlib we do not need.
 *
 * Config (`createDiscordAdapter(config)`, validated by {@link discordAdapterConfigSchema}):
 * - `bot_token` (required): the bot's token. The bot needs the MESSAGE CONTENT privileged
 *   intent enabled in the Developer Portal; it identifies with GUILD_MESSAGES | DIRECT_MESSAGES
 *   | MESSAGE_CONTENT.
 * - `api_base_url` (optional, default `https://discord.com/api/v10/`): REST base; tests point
 *   it at a local fake, whose GET /gateway/bot returns a ws:// URL.
 *
 * Threads: Discord threads are channels. Inbound, a message in a thread has the thread's
 * channel id as `chat_id` and `thread_id` 0 (a thread is a chat of its own to authorize).
 * Outbound, `thread_id` 0 posts to `chat_id`; a non-zero `thread_id` is the thread's channel id
 * (a snowflake string; numbers are refused, snowflakes exceed 2^53) and the post goes there.
 * `update_id` is the message id. Mentions in sent text never ping (`allowed_mentions`).
 *
 * Delivery: the gateway has no acknowledgements. A dropped connection RESUMEs with the last
 * sequence received, and Discord replays what was missed; messages already received wait in
 * an in-memory queue until the bridge takes them. Messages sent while no session exists (the
 * adapter stopped, or Discord refused to resume) are not replayed by Discord.
 */
import type { ImAdapter } from '../../adapter.js';
import { DiscordAdapter, DISCORD_DEFAULT_TIMING, type DiscordAdapterTiming } from './adapter.js';
import { discordAdapterConfigSchema, type DiscordAdapterConfigInput } from './config.js';

export { DiscordAdapter, type DiscordAdapterTiming } from './adapter.js';
export { discordAdapterConfigSchema, type DiscordAdapterConfig, type DiscordAdapterConfigInput } from './config.js';
export { DiscordApiError, DiscordGatewayError } from './errors.js';

/** Validates `config` (throws a ZodError naming the field, never echoing a token) and builds the adapter. */
export function createDiscordAdapter(
  config: DiscordAdapterConfigInput,
  timing: Partial<DiscordAdapterTiming> = {},
): ImAdapter {
  return new DiscordAdapter(discordAdapterConfigSchema.parse(config), { ...DISCORD_DEFAULT_TIMING, ...timing });
}
