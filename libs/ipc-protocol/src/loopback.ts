import { NdjsonDecoder, encodeLineText } from './codec.js';
import { errorResponse } from './envelope.js';
import { ErrorCodes } from './errors.js';
import { MAX_REQUEST_LINE_BYTES } from './limits.js';
import type { OpRouter } from './router.js';

const encoder = new TextEncoder();

/** One in-memory client connection to a router, with the daemon's NDJSON framing rules. */
export interface LoopbackConnection {
  send(raw: string | Uint8Array): Promise<void>;
  /** The next response line, or null once the connection is closed and drained. */
  readLine(): Promise<string | null>;
  close(): void;
}

/**
 * An in-memory transport: the same framing and dispatch as the socket server, no socket. Lets
 * the contract kit and unit tests run without IO.
 */
export function loopbackConnection(router: OpRouter, maxLineBytes = MAX_REQUEST_LINE_BYTES): LoopbackConnection {
  const decoder = new NdjsonDecoder(maxLineBytes);
  const lines: string[] = [];
  const waiters: Array<(line: string | null) => void> = [];
  let closed = false;
  let chain = Promise.resolve();

  const emit = (line: string | null) => {
    const waiter = waiters.shift();
    if (waiter) waiter(line);
    else if (line !== null) lines.push(line);
  };
  const shut = () => {
    closed = true;
    while (waiters.length > 0) waiters.shift()!(null);
  };

  return {
    async send(raw) {
      if (closed) throw new Error('loopback connection is closed');
      const bytes = typeof raw === 'string' ? encoder.encode(raw) : raw;
      for (const line of decoder.push(bytes)) {
        chain = chain.then(async () => {
          if (closed) return;
          if (line.kind === 'line') {
            const { response } = await router.dispatchLine(line.text);
            emit(encodeLineText(response).trimEnd());
          } else if (line.kind === 'invalid_utf8') {
            emit(encodeLineText(errorResponse(ErrorCodes.invalidRequest, 'request line is not valid UTF-8')).trimEnd());
          } else {
            emit(
              encodeLineText(
                errorResponse(ErrorCodes.invalidRequest, `request line exceeds ${line.limit} bytes`, { limit: line.limit }),
              ).trimEnd(),
            );
            shut();
          }
        });
      }
      await chain;
    },
    readLine() {
      const line = lines.shift();
      if (line !== undefined) return Promise.resolve(line);
      if (closed) return Promise.resolve(null);
      return new Promise((resolve) => waiters.push(resolve));
    },
    close: shut,
  };
}
