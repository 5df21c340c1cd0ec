import { connectFailureCode, DaemonTransportError } from './errors.js';

/** Connect failures worth another attempt: the daemon is starting, restarting or busy. */
const RETRYABLE = new Set(['ECONNREFUSED', 'ENOENT', 'EAGAIN', 'ECONNRESET']);

export interface ConnectRetryOptions {
  /** One connect attempt's budget, within what is left of the whole (default: all of it). */
  readonly connectTimeoutMs?: number;
  /** Connect attempts (default 1). Only connect failures are retried: nothing was sent yet. */
  readonly attempts?: number;
  /** The wait before retry n is n × this. */
  readonly retryDelayMs?: number;
}

/**
 * `connectOnce` until it succeeds, fails with something other than a retryable connect failure,
 * or has been tried `attempts` times; `left` is what remains of the whole exchange's budget.
 * Shared by the node:net exchange and the pipe handle's (line-exchange.ts, pipe-exchange.ts).
 */
export async function connectWithRetries<T>(connectOnce: (timeoutMs: number) => Promise<T>, options: ConnectRetryOptions, left: () => number): Promise<T> {
  const attempts = Math.max(1, options.attempts ?? 1);
  for (let attempt = 1; ; attempt++) {
    try {
      return await connectOnce(Math.min(options.connectTimeoutMs ?? Infinity, left()));
    } catch (error) {
      const retry = error instanceof DaemonTransportError && RETRYABLE.has(connectFailureCode(error)) && attempt < attempts;
      if (!retry) throw error;
      await new Promise((resolve) => setTimeout(resolve, (options.retryDelayMs ?? 0) * attempt));
    }
  }
}
