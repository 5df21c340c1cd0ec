/**
 * The Slack adapter: Socket Mode (apps.connections.open → WebSocket) to receive, the Web API
 * (chat.postMessage) to send. Built on fetch + `ws` rather than @slack/socket-mode, whose
 * client acknowledges and reconnects on its own schedule; here an envelope is acknowledged
 * only after the bridge has taken the message.
 *
 * Config (`createSlackAdapter(config)`, validated by {@link slackAdapterConfigSchema}):
 * - `bot_token` (required, `xoxb-…`): Web API token; needs `chat:write` plus the history
 *   scopes of the conversations it listens in (`channels:history`, `im:history`, …).
 * - `app_token` (required, `xapp-…`): app-level token with `connections:write` for Socket Mode.
 * - `api_base_url` (optional, default `https://slack.com/api/`): where Web API methods live;
 *   tests point it at a local fake, whose apps.connections.open returns a ws:// URL.
 *
 * Inbound: `chat_id` is the channel id, `thread_id` Slack's `thread_ts` string kept byte for
 * byte (0 for a top-level message), `update_id` is `<channel>:<ts>`, stable across
 * redeliveries. Outbound: `thread_id` 0 posts to the channel, a ts string replies in that
 * thread. Tokens never reach logs or error messages.
 */
import type { ImAdapter } from '../../adapter.js';
import { SlackAdapter, SLACK_DEFAULT_TIMING, type SlackAdapterTiming } from './adapter.js';
import { slackAdapterConfigSchema, type SlackAdapterConfigInput } from './config.js';

export { SlackAdapter, type SlackAdapterTiming } from './adapter.js';
export { slackAdapterConfigSchema, type SlackAdapterConfig, type SlackAdapterConfigInput } from './config.js';
export { SlackApiError } from './errors.js';

/** Validates `config` (throws a ZodError naming the field, never echoing a token) and builds the adapter. */
export function createSlackAdapter(
  config: SlackAdapterConfigInput,
  timing: Partial<SlackAdapterTiming> = {},
): ImAdapter {
  return new SlackAdapter(slackAdapterConfigSchema.parse(config), { ...SLACK_DEFAULT_TIMING, ...timing });
}
