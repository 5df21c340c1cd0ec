import type { EventStream } from '@cccc/ipc-protocol/node';
import type { SseClient } from '../sse/sse.js';

/** Returned by handlers that wrote the response themselves (streams). */
export const RESPONDED: unique symbol = Symbol('responded');

/** One item of a daemon stream (`t` names it; unknown `t` values are ignorable, §4.5). */
export type StreamItem = { readonly t: string; readonly [key: string]: unknown };

/** One SSE frame made from a daemon stream item; undefined skips the item. */
export type SseFrame = { readonly event: string; readonly data: unknown; readonly id?: string };

/**
 * Pump a daemon stream into one SSE client: `toFrame` names the frames, a daemon error item
 * becomes an `error` frame and ends the stream, daemon heartbeats stay behind (the SSE client
 * has its own). The daemon stream is opened before the SSE headers so a refusal
 * (group_not_found, ...) still gets the JSON envelope and its status.
 */
export function bridge(
  stream: EventStream,
  sse: SseClient,
  toFrame: (item: StreamItem) => SseFrame | undefined,
  admitted: () => boolean,
  recheckMs: number,
): void {
  // A revoked token ends the stream at the next check (at most one heartbeat interval).
  const recheck = setInterval(() => {
    if (!admitted()) sse.close('server');
  }, recheckMs);
  recheck.unref();
  sse.onClose(() => {
    clearInterval(recheck);
    stream.close();
  });
  void (async () => {
    try {
      for await (const item of stream) {
        if (sse.isClosed || !admitted()) break;
        if (item.t === 'error' && 'code' in item) {
          sse.send('error', { code: item.code, message: 'message' in item ? item.message : '' });
          break;
        }
        const frame = toFrame(item);
        if (frame) sse.send(frame.event, frame.data, frame.id);
      }
    } catch {
      // The daemon side ended; the client reconnects (Last-Event-ID, or a replay).
    } finally {
      sse.close('server');
    }
  })();
}
