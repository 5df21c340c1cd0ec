import { z } from 'zod';

/** Discord's REST API, version 10; the gateway URL comes from GET /gateway/bot. */
export const DISCORD_DEFAULT_API_BASE_URL = 'https://discord.com/api/v10/';

export const discordAdapterConfigSchema = z.strictObject({
  /** Bot token from the Developer Portal (sent as `Authorization: Bot …`). */
  bot_token: z.string().min(1),
  /** REST base URL including the version; tests point it at a local fake. */
  api_base_url: z
    .url()
    .default(DISCORD_DEFAULT_API_BASE_URL)
    // new URL(path, base) drops the last path segment unless the base ends with a slash.
    .transform((url) => (url.endsWith('/') ? url : `${url}/`)),
});

export type DiscordAdapterConfigInput = z.input<typeof discordAdapterConfigSchema>;
export type DiscordAdapterConfig = z.output<typeof discordAdapterConfigSchema>;
