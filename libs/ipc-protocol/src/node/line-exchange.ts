import type { Socket } from 'node:net';
import { connectSocket } from './connect.js';
import { connectWithRetries, type ConnectRetryOptions } from './connect-retries.js';
import type { SocketAddress } from './endpoint.js';
import { monotonicMs } from './monotonic.js';
import { readFirstLine } from './read-line.js';

export interface LineExchangeOptions extends ConnectRetryOptions {
  /** Names the request in errors. */
  readonly op: string;
  /** The whole exchange's budget: connect (retries included) and answer. */
  readonly timeoutMs: number;
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
  const socket = await connectWithRetries((timeoutMs) => connectSocket(endpoint, timeoutMs), options, left);
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
