import { z } from 'zod';
import type { ImAdapter, ImAdapterContext, ImInboundMessage, ImOutboundMessage } from '../../adapter.js';
import { ImAuthError } from '../../adapter.js';
import type { SlackAdapterConfig } from './config.js';
import { SlackApiError } from './errors.js';
import { toInboundMessage, toThreadTs } from './events.js';
import { backoffMs, sleep, withRateLimitRetry } from '../retry.js';
import { runSocketConnection } from './socket-connection.js';
import { callSlackApi } from './web-api.js';

/** Reconnect and re-offer pacing; tests shorten it, production keeps the defaults. */
export interface SlackAdapterTiming {
  readonly reconnectBaseMs: number;
  readonly reconnectMaxMs: number;
  readonly reofferBaseMs: number;
  readonly reofferMaxMs: number;
  /** Client pings; two intervals without a pong mark the socket stale. */
  readonly pingIntervalMs: number;
}

export const SLACK_DEFAULT_TIMING: SlackAdapterTiming = {
  reconnectBaseMs: 1_000,
  reconnectMaxMs: 60_000,
  reofferBaseMs: 500,
  reofferMaxMs: 30_000,
  pingIntervalMs: 10_000,
};

const authTestSchema = z.object({ user_id: z.string().min(1) });
const connectionsOpenSchema = z.object({ url: z.string().min(1) });
const postMessageSchema = z.object({ ts: z.string().min(1) });

/** Slack over Socket Mode (receive) and the Web API (send). */
export class SlackAdapter implements ImAdapter {
  readonly platform = 'slack' as const;

  constructor(
    private readonly config: SlackAdapterConfig,
    private readonly timing: SlackAdapterTiming = SLACK_DEFAULT_TIMING,
  ) {}

  async run(outer: ImAdapterContext): Promise<void> {
    // Messages still queued when run ends (auth failure, fatal close) stop being offered with it.
    const scope = new AbortController();
    const ctx: ImAdapterContext = {
      signal: AbortSignal.any([outer.signal, scope.signal]),
      onMessage: (message) => outer.onMessage(message),
      log: (level, message, fields) => outer.log(level, message, fields),
    };
    try {
      await this.receive(ctx);
    } finally {
      scope.abort();
    }
  }

  private async receive(ctx: ImAdapterContext): Promise<void> {
    const { signal } = ctx;
    const botUserId = await this.botUserId(signal).catch((error: unknown) => rethrowUnlessAborted(error, signal));
    if (botUserId === undefined) return;
    // One queue across reconnects: envelopes are handed over in order, one at a time.
    let queue: Promise<void> = Promise.resolve();
    let failures = 0;
    let disconnectReason = '';
    while (!signal.aborted) {
      let url: string;
      try {
        url = await this.openConnection(ctx);
      } catch (error) {
        if (error instanceof ImAuthError) throw error;
        if (signal.aborted) return;
        ctx.log('warn', 'slack apps.connections.open failed', { error: describe(error), failures });
        await sleep(backoffMs(failures++, this.timing.reconnectBaseMs, this.timing.reconnectMaxMs), signal);
        continue;
      }
      const end = await runSocketConnection(url, {
        signal,
        pingIntervalMs: this.timing.pingIntervalMs,
        onHello: () => {
          failures = 0;
          ctx.log('info', 'slack socket mode connected');
        },
        onEnvelope: (event, ack) => {
          const message = toInboundMessage(event, botUserId);
          queue = queue.then(async () => {
            if (message === null || (await this.offer(message, ctx))) ack();
          });
        },
        onDisconnect: (reason) => {
          disconnectReason = reason;
          ctx.log('info', 'slack asked to reconnect', { reason });
        },
        onSocketError: (message) => ctx.log('warn', 'slack socket error', { error: message }),
      });
      if (end === 'aborted') return;
      // Slack's own disconnect is a planned refresh: reconnect at once. A drop waits, and so
      // does link_disabled (Socket Mode switched off for the app), so we never spin on it.
      const planned = end === 'disconnect' && disconnectReason !== 'link_disabled';
      disconnectReason = '';
      if (!planned) {
        ctx.log('warn', `slack socket ${end}; reconnecting`, { failures });
        await sleep(backoffMs(failures++, this.timing.reconnectBaseMs, this.timing.reconnectMaxMs), signal);
      }
    }
  }

  async send(message: ImOutboundMessage, signal?: AbortSignal): Promise<{ readonly message_id: string }> {
    const threadTs = toThreadTs(message.thread_id);
    if (threadTs === null) throw new SlackApiError('chat.postMessage', 'invalid_thread_id');
    const body = await withRateLimitRetry(
      () =>
        callSlackApi(
          'chat.postMessage',
          { channel: message.chat_id, text: message.text, thread_ts: threadTs },
          { baseUrl: this.config.api_base_url, token: this.config.bot_token, signal },
        ),
      signal,
    );
    const posted = postMessageSchema.safeParse(body);
    if (!posted.success) throw new SlackApiError('chat.postMessage', 'bad_response');
    return { message_id: posted.data.ts };
  }

  /** auth.test both checks the bot token up front and tells us whose messages to ignore. */
  private async botUserId(signal: AbortSignal): Promise<string> {
    const body = await withRateLimitRetry(
      () => callSlackApi('auth.test', {}, { baseUrl: this.config.api_base_url, token: this.config.bot_token, signal }),
      signal,
    );
    const parsed = authTestSchema.safeParse(body);
    if (!parsed.success) throw new SlackApiError('auth.test', 'bad_response');
    return parsed.data.user_id;
  }

  private async openConnection(ctx: ImAdapterContext): Promise<string> {
    const { signal } = ctx;
    const body = await withRateLimitRetry(
      () =>
        callSlackApi(
          'apps.connections.open',
          {},
          { baseUrl: this.config.api_base_url, token: this.config.app_token, signal },
        ),
      signal,
      (retryAfterMs) => ctx.log('warn', 'slack rate limit on apps.connections.open', { retryAfterMs }),
    );
    const parsed = connectionsOpenSchema.safeParse(body);
    if (!parsed.success) throw new SlackApiError('apps.connections.open', 'bad_response');
    return parsed.data.url;
  }

  /**
   * Hands a message to the bridge until it accepts; true once accepted, false when aborted
   * first. A rejection leaves the envelope unacknowledged and re-offers it after a backoff.
   */
  private async offer(message: ImInboundMessage, ctx: ImAdapterContext): Promise<boolean> {
    for (let attempt = 0; !ctx.signal.aborted; attempt++) {
      try {
        await ctx.onMessage(message);
        return true;
      } catch (error) {
        ctx.log('warn', 'bridge did not take a slack message; offering it again', {
          update_id: message.update_id,
          attempt,
          error: describe(error),
        });
        await sleep(backoffMs(attempt, this.timing.reofferBaseMs, this.timing.reofferMaxMs), ctx.signal);
      }
    }
    return false;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** An abort during startup is a clean stop, not a failure. */
function rethrowUnlessAborted(error: unknown, signal: AbortSignal): undefined {
  if (signal.aborted) return undefined;
  throw error;
}
