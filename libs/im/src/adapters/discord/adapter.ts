import { z } from 'zod';
import type { ImAdapter, ImAdapterContext, ImInboundMessage, ImOutboundMessage } from '../../adapter.js';
import { ImAuthError } from '../../adapter.js';
import type { DiscordAdapterConfig } from './config.js';
import { DiscordApiError, DiscordGatewayError } from './errors.js';
import { runGatewayConnection, type GatewaySession } from './gateway-connection.js';
import { outboundChannel, toInboundMessage } from './gateway-protocol.js';
import { DiscordRest } from './rest.js';
import { backoffMs, sleep, withRateLimitRetry } from '../retry.js';

/** Reconnect, re-offer and invalid-session pacing; tests shorten it. */
export interface DiscordAdapterTiming {
  readonly reconnectBaseMs: number;
  readonly reconnectMaxMs: number;
  readonly reofferBaseMs: number;
  readonly reofferMaxMs: number;
  readonly invalidSessionMinMs: number;
  readonly invalidSessionMaxMs: number;
}

export const DISCORD_DEFAULT_TIMING: DiscordAdapterTiming = {
  reconnectBaseMs: 1_000,
  reconnectMaxMs: 60_000,
  reofferBaseMs: 500,
  reofferMaxMs: 30_000,
  invalidSessionMinMs: 1_000,
  invalidSessionMaxMs: 5_000,
};

const gatewayBotSchema = z.object({ url: z.string().min(1) });
const createdMessageSchema = z.object({ id: z.string().min(1) });

/** Discord over the gateway WebSocket (receive) and REST (send). */
export class DiscordAdapter implements ImAdapter {
  readonly platform = 'discord' as const;
  private readonly rest: DiscordRest;

  constructor(
    private readonly config: DiscordAdapterConfig,
    private readonly timing: DiscordAdapterTiming = DISCORD_DEFAULT_TIMING,
  ) {
    this.rest = new DiscordRest(config.api_base_url, config.bot_token);
  }

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
    const session: GatewaySession = { sessionId: undefined, resumeUrl: undefined, seq: null, botUserId: undefined };
    let gatewayUrl: string | undefined;
    // One queue across reconnects: messages reach the bridge in gateway order, one at a time,
    // and one still being offered survives a dropped connection.
    let queue: Promise<void> = Promise.resolve();
    let failures = 0;
    while (!signal.aborted) {
      const resuming = session.sessionId !== undefined && session.resumeUrl !== undefined;
      if (!resuming && gatewayUrl === undefined) {
        try {
          gatewayUrl = await this.fetchGatewayUrl(ctx);
        } catch (error) {
          if (error instanceof ImAuthError) throw error;
          if (signal.aborted) return;
          ctx.log('warn', 'discord GET /gateway/bot failed', { error: describe(error), failures });
          await sleep(backoffMs(failures++, this.timing.reconnectBaseMs, this.timing.reconnectMaxMs), signal);
          continue;
        }
      }
      const url = resuming ? session.resumeUrl! : gatewayUrl!;
      const end = await runGatewayConnection(url, session, {
        signal,
        token: this.config.bot_token,
        invalidSessionDelayMs: () =>
          this.timing.invalidSessionMinMs +
          Math.random() * (this.timing.invalidSessionMaxMs - this.timing.invalidSessionMinMs),
        onDispatch: (type, data) => {
          if (type !== 'MESSAGE_CREATE') return;
          const message = toInboundMessage(data, session.botUserId);
          if (message !== null) queue = queue.then(() => this.offer(message, ctx));
        },
        log: (level, message, fields) => ctx.log(level, message, fields),
      });
      switch (end.kind) {
        case 'aborted':
          return;
        case 'auth_failed':
          throw new ImAuthError('discord', 'discord gateway closed with 4004 (authentication failed)');
        case 'fatal':
          throw new DiscordGatewayError(end.code);
        case 'reconnect':
          if (end.ready) failures = 0;
          // A connection that never got READY/RESUMED backs off; a healthy one that Discord
          // recycled (op 7, a drop after hours) reconnects at once.
          else if (!end.delayed) {
            await sleep(backoffMs(failures++, this.timing.reconnectBaseMs, this.timing.reconnectMaxMs), signal);
          }
      }
    }
  }

  async send(message: ImOutboundMessage, signal?: AbortSignal): Promise<{ readonly message_id: string }> {
    const target = outboundChannel(message.chat_id, message.thread_id);
    if ('error' in target) throw new DiscordApiError('POST /channels/{id}/messages', target.error);
    const route = `POST /channels/${target.channel}/messages`;
    const body = await withRateLimitRetry(
      () =>
        this.rest.request(
          {
            method: 'POST',
            path: `channels/${target.channel}/messages`,
            route,
            // Agent text must not ping @everyone, roles or users by accident.
            body: { content: message.text, allowed_mentions: { parse: [] } },
          },
          signal,
        ),
      signal,
    );
    const created = createdMessageSchema.safeParse(body);
    if (!created.success) throw new DiscordApiError(route, 'bad_response');
    return { message_id: created.data.id };
  }

  private async fetchGatewayUrl(ctx: ImAdapterContext): Promise<string> {
    const body = await withRateLimitRetry(
      () => this.rest.request({ method: 'GET', path: 'gateway/bot', route: 'GET /gateway/bot' }, ctx.signal),
      ctx.signal,
      (retryAfterMs) => ctx.log('warn', 'discord rate limit on GET /gateway/bot', { retryAfterMs }),
    );
    const parsed = gatewayBotSchema.safeParse(body);
    if (!parsed.success) throw new DiscordApiError('GET /gateway/bot', 'bad_response');
    return parsed.data.url;
  }

  /** Hands a message to the bridge until it accepts or the adapter stops, re-offering on rejection. */
  private async offer(message: ImInboundMessage, ctx: ImAdapterContext): Promise<void> {
    for (let attempt = 0; !ctx.signal.aborted; attempt++) {
      try {
        await ctx.onMessage(message);
        return;
      } catch (error) {
        ctx.log('warn', 'bridge did not take a discord message; offering it again', {
          update_id: message.update_id,
          attempt,
          error: describe(error),
        });
        await sleep(backoffMs(attempt, this.timing.reofferBaseMs, this.timing.reofferMaxMs), ctx.signal);
      }
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
