import { setTimeout as sleep } from 'node:timers/promises';
import {
  ImAuthError,
  type ImAdapter,
  type ImAdapterContext,
  type ImInboundMessage,
  type ImOutboundMessage,
} from '../../adapter.js';
import { chunkText, TelegramApiError, TgResponse, TgUpdate, type TgMessage } from './telegram-api.js';

export interface TelegramAdapterOptions {
  readonly token: string;
  /** The Bot API root; a local fake server in tests. */
  readonly baseUrl?: string;
  /** getUpdates long-poll timeout, seconds. */
  readonly pollTimeoutS?: number;
  /** First wait after a dropped connection or a server error; doubles up to `maxRetryDelayMs`. */
  readonly retryDelayMs?: number;
  readonly maxRetryDelayMs?: number;
}

const isAbort = (err: unknown) => err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');

/**
 * Telegram Bot API adapter: long polling with getUpdates, sendMessage for replies. An update's
 * offset advances only after the bridge resolved onMessage for it, so an update the bridge did
 * not store is offered again. The token is part of every URL; it is never logged, and errors
 * carry only Telegram's code and description.
 */
export class TelegramAdapter implements ImAdapter {
  readonly platform = 'telegram' as const;
  private readonly baseUrl: string;
  private readonly pollTimeoutS: number;
  private readonly retryDelayMs: number;
  private readonly maxRetryDelayMs: number;

  constructor(private readonly options: TelegramAdapterOptions) {
    this.baseUrl = (options.baseUrl ?? 'https://api.telegram.org').replace(/\/+$/, '');
    this.pollTimeoutS = options.pollTimeoutS ?? 25;
    this.retryDelayMs = options.retryDelayMs ?? 1000;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
  }

  /** One Bot API call; resolves with `result`, rejects with TelegramApiError or a network error. */
  private async call(method: string, body: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    const response = await fetch(`${this.baseUrl}/bot${this.options.token}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
    const parsed = TgResponse.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) throw new TelegramApiError(response.status, 'unreadable response');
    const data = parsed.data;
    if (data.ok) return data.result;
    throw new TelegramApiError(data.error_code ?? response.status, data.description ?? '', data.parameters?.retry_after);
  }

  /** Maps a failure to the wait before the next try, or throws what must not be retried. */
  private retryWait(err: unknown, attempt: number): number {
    const auth = authErrorOf(err);
    if (auth) throw auth;
    if (err instanceof TelegramApiError) {
      if (err.errorCode === 429) return Math.max(1, err.retryAfterS ?? 1) * 1000;
      if (err.errorCode >= 400 && err.errorCode < 500 && err.errorCode !== 409) throw err;
    }
    return Math.min(this.retryDelayMs * 2 ** attempt, this.maxRetryDelayMs);
  }

  async run(ctx: ImAdapterContext): Promise<void> {
    let offset: number | undefined;
    let attempt = 0;
    while (!ctx.signal.aborted) {
      let updates: TgUpdate[];
      try {
        const result = await this.call(
          'getUpdates',
          { timeout: this.pollTimeoutS, allowed_updates: ['message', 'channel_post'], ...(offset === undefined ? {} : { offset }) },
          ctx.signal,
        );
        updates = TgUpdate.array().parse(result);
        attempt = 0;
      } catch (err) {
        if (ctx.signal.aborted || isAbort(err)) break;
        const wait = this.retryWait(err, attempt++);
        ctx.log('warn', 'telegram getUpdates failed; retrying', { code: err instanceof TelegramApiError ? err.errorCode : 'network', wait_ms: wait });
        await sleep(wait, undefined, { signal: ctx.signal }).catch(() => undefined);
        continue;
      }
      for (const update of updates) {
        const inbound = toInbound(update);
        if (inbound) {
          try {
            await ctx.onMessage(inbound);
          } catch (err) {
            // Not stored: keep the offset so Telegram offers this update again.
            ctx.log('warn', 'bridge did not take an update; it will be offered again', { update_id: update.update_id, error: err instanceof Error ? err.name : 'unknown' });
            await sleep(this.retryDelayMs, undefined, { signal: ctx.signal }).catch(() => undefined);
            break;
          }
        }
        offset = update.update_id + 1;
      }
    }
  }

  async send(message: ImOutboundMessage, signal?: AbortSignal): Promise<{ readonly message_id: string }> {
    let last = '';
    for (const text of chunkText(message.text)) {
      const body: Record<string, unknown> = { chat_id: message.chat_id, text };
      if (message.thread_id !== 0) body.message_thread_id = message.thread_id;
      for (;;) {
        try {
          const result = (await this.call('sendMessage', body, signal)) as { message_id?: number };
          last = String(result?.message_id ?? '');
          break;
        } catch (err) {
          // Only a 429 is retried here: Telegram guarantees that nothing was sent. After a server
          // error or a dropped connection the message may have gone out; the bridge decides.
          if (err instanceof TelegramApiError && err.errorCode === 429 && !signal?.aborted) {
            await sleep(Math.max(1, err.retryAfterS ?? 1) * 1000, undefined, { signal });
            continue;
          }
          throw authErrorOf(err) ?? err;
        }
      }
    }
    return { message_id: last };
  }
}

/** 401, or 404 on a method that exists, means the token names no bot: not worth retrying. */
function authErrorOf(err: unknown): ImAuthError | undefined {
  if (err instanceof TelegramApiError && (err.errorCode === 401 || err.errorCode === 404)) {
    return new ImAuthError('telegram', `telegram rejected the bot token (${err.errorCode})`);
  }
  return undefined;
}

function toInbound(update: TgUpdate): ImInboundMessage | undefined {
  const msg: TgMessage | undefined = update.message ?? update.channel_post;
  const text = msg?.text ?? msg?.caption;
  if (!msg || text === undefined || text.trim() === '') return undefined;
  const name = msg.from?.username ?? msg.from?.first_name ?? msg.chat.title ?? String(msg.chat.id);
  return {
    platform: 'telegram',
    chat_id: String(msg.chat.id),
    // Only forum topics are threads; in other chats message_thread_id names a reply chain,
    // which sendMessage would refuse.
    thread_id: msg.is_topic_message && msg.message_thread_id !== undefined ? msg.message_thread_id : 0,
    update_id: String(update.update_id),
    from: { id: String(msg.from?.id ?? msg.chat.id), name },
    text,
    ts_ms: msg.date * 1000,
  };
}
