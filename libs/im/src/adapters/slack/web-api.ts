import { z } from 'zod';
import { ImAuthError, ImRateLimitError } from '../../adapter.js';
import { SlackApiError } from './errors.js';

/** Slack's error strings that mean "this token is no good"; the bridge must not retry blindly. */
const AUTH_ERRORS = new Set([
  'invalid_auth',
  'not_authed',
  'token_revoked',
  'token_expired',
  'account_inactive',
  'org_login_required',
]);

/** When Slack rate-limits without a usable Retry-After header. */
const DEFAULT_RETRY_AFTER_MS = 1_000;

const slackResponseSchema = z.looseObject({ ok: z.boolean(), error: z.string().optional() });
export type SlackResponse = z.infer<typeof slackResponseSchema>;

export interface SlackCall {
  readonly baseUrl: string;
  readonly token: string;
  readonly signal?: AbortSignal | undefined;
}

/** Retry-After is whole seconds on Slack's 429s. */
export function retryAfterMs(header: string | null): number {
  const seconds = header === null ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : DEFAULT_RETRY_AFTER_MS;
}

/**
 * One Web API call (POST, JSON body, bearer token). Throws ImRateLimitError on HTTP 429 or
 * `ratelimited`, ImAuthError on the auth error strings, SlackApiError on anything else.
 */
export async function callSlackApi(
  method: string,
  args: Record<string, unknown>,
  call: SlackCall,
): Promise<SlackResponse> {
  const response = await fetch(new URL(method, call.baseUrl), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${call.token}`,
      'content-type': 'application/json; charset=utf-8',
    },
    body: JSON.stringify(args),
    ...(call.signal ? { signal: call.signal } : {}),
  });
  if (response.status === 429) {
    await response.body?.cancel();
    throw new ImRateLimitError('slack', retryAfterMs(response.headers.get('retry-after')));
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new SlackApiError(method, `http_${response.status}`);
  }
  const parsed = slackResponseSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new SlackApiError(method, 'bad_response');
  const body = parsed.data;
  if (body.ok) return body;
  const error = body.error ?? 'unknown_error';
  if (AUTH_ERRORS.has(error)) throw new ImAuthError('slack', `slack ${method}: ${error}`);
  if (error === 'ratelimited') {
    throw new ImRateLimitError('slack', retryAfterMs(response.headers.get('retry-after')));
  }
  throw new SlackApiError(method, error);
}
