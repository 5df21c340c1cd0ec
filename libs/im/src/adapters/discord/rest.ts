import { z } from 'zod';
import { ImAuthError, ImRateLimitError } from '../../adapter.js';
import { DiscordApiError } from './errors.js';
import { sleep } from '../retry.js';

const rateLimitBodySchema = z.object({ retry_after: z.number().nonnegative(), global: z.boolean().optional() });
const errorBodySchema = z.object({ code: z.number().optional() });

/** When a 429 carries neither a usable body nor a Retry-After header. */
const DEFAULT_RETRY_AFTER_MS = 1_000;
const GLOBAL = 'global';

export interface DiscordRequest {
  readonly method: 'GET' | 'POST';
  /** Path under the API base, e.g. `channels/123/messages`. */
  readonly path: string;
  /** Groups requests that share a rate-limit bucket (Discord buckets by route + major id). */
  readonly route: string;
  readonly body?: unknown;
}

/**
 * Discord REST with its rate-limit rules: a 429 becomes ImRateLimitError with the body's
 * precise `retry_after` (seconds); `X-RateLimit-Remaining: 0` holds later requests on that
 * route until `X-RateLimit-Reset-After` has passed, so we do not earn the 429 at all.
 */
export class DiscordRest {
  /** route (or 'global') → epoch ms before which no request on it may start. */
  private readonly readyAt = new Map<string, number>();

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  async request(request: DiscordRequest, signal?: AbortSignal): Promise<unknown> {
    const waitMs = Math.max(this.readyAt.get(GLOBAL) ?? 0, this.readyAt.get(request.route) ?? 0) - Date.now();
    if (waitMs > 0 && !(await sleep(waitMs, signal))) throw signal?.reason;
    const response = await fetch(new URL(request.path, this.baseUrl), {
      method: request.method,
      headers: {
        authorization: `Bot ${this.token}`,
        'user-agent': 'DiscordBot (https://github.com/cccc-ts/cccc-ts, 0.1.0)',
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      ...(signal ? { signal } : {}),
    });
    this.noteBucket(request.route, response.headers);
    const body: unknown = await response.json().catch(() => undefined);
    if (response.status === 429) {
      const limit = rateLimitBodySchema.safeParse(body);
      const retryAfterMs = limit.success ? limit.data.retry_after * 1000 : headerRetryAfterMs(response.headers);
      if (limit.success && limit.data.global) this.readyAt.set(GLOBAL, Date.now() + retryAfterMs);
      throw new ImRateLimitError('discord', retryAfterMs);
    }
    if (response.status === 401) throw new ImAuthError('discord', `discord ${request.route}: 401 unauthorized`);
    if (!response.ok) {
      const code = errorBodySchema.safeParse(body);
      const suffix = code.success && code.data.code !== undefined ? `_${code.data.code}` : '';
      throw new DiscordApiError(request.route, `http_${response.status}${suffix}`);
    }
    return body;
  }

  private noteBucket(route: string, headers: Headers): void {
    if (headers.get('x-ratelimit-remaining') !== '0') return;
    const resetAfter = Number(headers.get('x-ratelimit-reset-after'));
    if (Number.isFinite(resetAfter) && resetAfter > 0) this.readyAt.set(route, Date.now() + resetAfter * 1000);
  }
}

function headerRetryAfterMs(headers: Headers): number {
  const seconds = Number(headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_RETRY_AFTER_MS;
}
