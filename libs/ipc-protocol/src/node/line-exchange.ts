import type { Socket } from 'node:net';
import { connectFailureCode, connectSocket } from './connect.js';
import type { SocketAddress } from './endpoint.js';
import { DaemonTransportError } from './errors.js';
import { readFirstLine } from './read-line.js';

const RETRYABLE = new Set(['ECONNREFUSED', 'ENOENT', 'EAGAIN', 'ECONNRESET']);

export interface LineExchangeOptions {
  /** Names the request in errors. */
  readonly op: string;
  /** The whole exchange's budget: connect (retries included) and answer. */
  readonly timeoutMs: number;
  /** One connect attempt's budget, within what is left of `timeoutMs` (default: all of it). */
  readonly connectTimeoutMs?: number;
  /** Connect attempts (default 1). Only connect failures are retried: nothing was sent yet. */
  readonly attempts?: number;
  /** The wait before retry n is n × this. */
  readonly retryDelayMs?: number;
  readonly maxLineBytes: number;
}

export interface ExchangedLine {
  readonly line: string;
  /** Bytes that arrived after the line: the start of an upgraded stream. */
  readonly rest: Buffer;
  /** Paused; the caller destroys it, or reads on (an upgrade). */
  readonly socket: Socket;
}

/**
 * Daemon IPC v1's one exchange (§4.3): connect, send one request line, read the first answer
 * line. It loads only `node:net`, so that `cccc hook`'s dependency-free bundle (run at every tool
 * call of an agent) and the DaemonClient share it. Failures are DaemonTransportError; `requestSent`
 * says whether the request may have reached the daemon (then it must not be replayed).
 */
export async function exchangeLine(endpoint: SocketAddress, line: string, options: LineExchangeOptions): Promise<ExchangedLine> {
  const start = monotonicMs();
  const left = (): number => Math.max(0, options.timeoutMs - (monotonicMs() - start));
  const socket = await connectWithRetries(endpoint, options, left);
  try {
    const reading = readFirstLine(socket, options.maxLineBytes, left(), options.op, options.timeoutMs);
    socket.write(line);
    const answer = await reading;
    return { line: answer.line, rest: answer.rest, socket };
  } catch (error) {
    socket.destroy();
    throw error;
  }
}

/**
 * Milliseconds on the monotonic clock. Not `performance.now()`: the `performance` global loads
 * perf_hooks on first use, ~0.5 ms of a cold `cccc ping` or hook process.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

async function connectWithRetries(endpoint: SocketAddress, options: LineExchangeOptions, left: () => number): Promise<Socket> {
  const attempts = Math.max(1, options.attempts ?? 1);
  for (let attempt = 1; ; attempt++) {
    try {
      return await connectSocket(endpoint, Math.min(options.connectTimeoutMs ?? Infinity, left()));
    } catch (error) {
      const retry = error instanceof DaemonTransportError && RETRYABLE.has(connectFailureCode(error)) && attempt < attempts;
      if (!retry) throw error;
      await new Promise((resolve) => setTimeout(resolve, (options.retryDelayMs ?? 0) * attempt));
    }
  }
}
