/**
 * The contract between the IM bridge (which owns authority, dedupe and the daemon connection)
 * and one platform adapter (which only speaks its platform's API). One adapter instance serves
 * one bot identity; the bridge runs it and feeds it outbound messages.
 */

export type ImPlatform = 'telegram' | 'slack' | 'discord';

/**
 * A platform-owned opaque thread identifier (spec §8.16): a legacy JSON number or a non-empty
 * string, never coerced through a number (Slack's `1710000000.100` must survive byte for byte).
 * 0 means "no thread".
 */
export type ImThreadId = number | string;

export interface ImInboundMessage {
  readonly platform: ImPlatform;
  readonly chat_id: string;
  readonly thread_id: ImThreadId;
  /** The platform's unique id of this update, used to drop duplicates (never posted twice). */
  readonly update_id: string;
  readonly from: { readonly id: string; readonly name: string };
  readonly text: string;
  /** When the platform says the message was sent, ms since the epoch. */
  readonly ts_ms: number;
}

export interface ImOutboundMessage {
  readonly chat_id: string;
  readonly thread_id: ImThreadId;
  readonly text: string;
}

export interface ImAdapterContext {
  /**
   * Hands one inbound message to the bridge. The adapter must not acknowledge the update to
   * its platform (advance an offset, ack an envelope) until this promise resolves: resolving
   * means the bridge stored it durably or decided to drop it. A rejection means "not stored":
   * the adapter keeps the update unacknowledged and offers it again.
   */
  onMessage(message: ImInboundMessage): Promise<void>;
  /** Aborted when the bridge stops the adapter. */
  readonly signal: AbortSignal;
  /** Diagnostics only; never pass tokens or message text here. */
  log(level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>): void;
}

export interface ImAdapter {
  readonly platform: ImPlatform;
  /**
   * Receives until `ctx.signal` aborts, then resolves. Reconnects by itself after dropped
   * connections and waits out rate limits (429 with retry-after). Rejects with
   * {@link ImAuthError} when the token is rejected (expired or revoked), which the bridge does
   * not retry blindly.
   */
  run(ctx: ImAdapterContext): Promise<void>;
  /** Posts one message, waiting out rate limits; rejects with {@link ImAuthError} on a bad token. */
  send(message: ImOutboundMessage, signal?: AbortSignal): Promise<{ readonly message_id: string }>;
}

/** The token was rejected by the platform (expired, revoked or wrong). */
export class ImAuthError extends Error {
  override readonly name = 'ImAuthError';
  constructor(readonly platform: ImPlatform, message: string) {
    super(message);
  }
}

/** The platform asked us to slow down for `retryAfterMs`. Adapters handle it; exported for tests. */
export class ImRateLimitError extends Error {
  override readonly name = 'ImRateLimitError';
  constructor(readonly platform: ImPlatform, readonly retryAfterMs: number) {
    super(`${platform} rate limit: retry after ${retryAfterMs} ms`);
  }
}
