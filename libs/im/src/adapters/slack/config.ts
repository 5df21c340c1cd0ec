import { z } from 'zod';

/** Slack answers on https://slack.com/api/<method>; tests point this at a local fake. */
export const SLACK_DEFAULT_API_BASE_URL = 'https://slack.com/api/';

const token = (prefix: string) =>
  z
    .string()
    .min(1)
    .refine((value) => value.startsWith(prefix), { message: `must be a Slack token starting with ${prefix}` });

export const slackAdapterConfigSchema = z.strictObject({
  /** Bot token (xoxb-…): Web API calls (auth.test, chat.postMessage). */
  bot_token: token('xoxb-'),
  /** App-level token (xapp-…) with connections:write: opens Socket Mode connections. */
  app_token: token('xapp-'),
  /** Web API base URL; the Socket Mode WebSocket URL comes from apps.connections.open. */
  api_base_url: z
    .url()
    .default(SLACK_DEFAULT_API_BASE_URL)
    // new URL(method, base) drops the last path segment unless the base ends with a slash.
    .transform((url) => (url.endsWith('/') ? url : `${url}/`)),
});

export type SlackAdapterConfigInput = z.input<typeof slackAdapterConfigSchema>;
export type SlackAdapterConfig = z.output<typeof slackAdapterConfigSchema>;
