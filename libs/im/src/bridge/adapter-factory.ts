import type { ImAdapter, ImPlatform } from '../adapter.js';
import { createDiscordAdapter } from '../adapters/discord/index.js';
import { createSlackAdapter } from '../adapters/slack/index.js';
import { TelegramAdapter } from '../adapters/telegram/telegram-adapter.js';
import type { ImSecrets } from '../config.js';

/**
 * The adapter for a group's platform, or undefined when this build has none for it. Base URLs
 * are overridable by environment for local fakes (tests); production uses the platforms' own.
 */
export function createAdapter(platform: ImPlatform, secrets: ImSecrets, env: NodeJS.ProcessEnv): ImAdapter | undefined {
  if (!secrets.bot_token) return undefined;
  if (platform === 'telegram') {
    return new TelegramAdapter({
      token: secrets.bot_token,
      ...(env.CCCC_IM_TELEGRAM_API_BASE ? { baseUrl: env.CCCC_IM_TELEGRAM_API_BASE } : {}),
      ...(env.CCCC_IM_TELEGRAM_POLL_TIMEOUT_S ? { pollTimeoutS: Number(env.CCCC_IM_TELEGRAM_POLL_TIMEOUT_S) } : {}),
    });
  }
  try {
    // Their factories validate the token shapes (xoxb-/xapp- for Slack) and throw, never echoing one.
    if (platform === 'slack' && secrets.app_token) {
      return createSlackAdapter({
        bot_token: secrets.bot_token,
        app_token: secrets.app_token,
        ...(env.CCCC_IM_SLACK_API_BASE ? { api_base_url: env.CCCC_IM_SLACK_API_BASE } : {}),
      });
    }
    if (platform === 'discord') {
      return createDiscordAdapter({ bot_token: secrets.bot_token, ...(env.CCCC_IM_DISCORD_API_BASE ? { api_base_url: env.CCCC_IM_DISCORD_API_BASE } : {}) });
    }
  } catch {
    return undefined; // a malformed token: the bridge reports a configuration error
  }
  return undefined;
}
