// Shared by the Slack and Discord adapters: rate-limit waits, abortable sleep and reconnect backoff.
import { setTimeout as delay } from 'node:timers/promises';
import { ImRateLimitError } from '../adapter.js';

/** A rate-limited request is tried at most this many times before the 429 reaches the caller. */
export const MAX_RATE_LIMIT_ATTEMPTS = 5;

/** Resolves after `ms`, or early (with `false`) when `signal` aborts; leaves no timer behind. */
export async function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  try {
    await delay(ms, undefined, signal ? { signal } : {});
    return true;
  } catch (error) {
    if (signal?.aborted) return false;
    throw error;
  }
}

/** Runs `attempt`, waiting out each ImRateLimitError for as long as the platform asked. */
export async function withRateLimitRetry<T>(
  attempt: () => Promise<T>,
  signal: AbortSignal | undefined,
  onWait?: (retryAfterMs: number) => void,
): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ImRateLimitError) || tries >= MAX_RATE_LIMIT_ATTEMPTS) throw error;
      onWait?.(error.retryAfterMs);
      if (!(await sleep(error.retryAfterMs, signal))) throw signal?.reason ?? error;
    }
  }
}

/** Exponential backoff for reconnects and re-offers, capped so a long outage polls gently. */
export function backoffMs(failures: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(failures, 16));
}
