import { MAX_RESPONSE_LINE_BYTES } from '../limits.js';
import type { DaemonEndpoint } from './endpoint.js';
import type { LineExchangeOptions } from './line-exchange.js';

export interface CallOptions {
  /** The daemon to call; default: the one `home`'s daemon.json or socket names. */
  readonly endpoint?: DaemonEndpoint;
  /** The whole call's budget (default 30 s). */
  readonly timeoutMs?: number;
  /** Connect attempts (default 3); only connect failures are retried. */
  readonly connectAttempts?: number;
  /** The wait before retry n is n × this (default 50 ms). */
  readonly connectRetryDelayMs?: number;
}

/** A call's exchange budgets: CallOptions with their defaults. */
export function callExchangeOptions(op: string, options: CallOptions): LineExchangeOptions {
  return {
    op,
    timeoutMs: options.timeoutMs ?? 30_000,
    attempts: options.connectAttempts ?? 3,
    retryDelayMs: options.connectRetryDelayMs ?? 50,
    maxLineBytes: MAX_RESPONSE_LINE_BYTES,
  };
}
