import type { Socket } from 'node:net';
import { graceTimeout } from './grace-timeout.js';
import { DaemonTransportError } from './errors.js';

export interface FirstLine {
  readonly line: string;
  /** Bytes that arrived after the line: the start of an upgraded stream. */
  readonly rest: Buffer;
}

/**
 * Read exactly one response line from `socket`, capped at `maxBytes` (§4.3), leaving the socket
 * paused with any following bytes returned as `rest`. `budgetMs` is the budget a timeout names
 * (the whole exchange's, when `timeoutMs` is what is left of it).
 */
export function readFirstLine(socket: Socket, maxBytes: number, timeoutMs: number, op: string, budgetMs = timeoutMs): Promise<FirstLine> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
      socket.off('error', onError);
      fn();
    };
    const timer = graceTimeout(timeoutMs, () =>
      finish(() => {
        socket.destroy();
        reject(new DaemonTransportError('timeout', `${op}: no answer within ${budgetMs} ms`, true));
      }),
    );
    const onData = (chunk: Buffer) => {
      const nl = chunk.indexOf(0x0a);
      if (nl === -1) {
        size += chunk.length;
        if (size > maxBytes) {
          finish(() => {
            socket.destroy();
            reject(new DaemonTransportError('too_large', `${op}: response line exceeds ${maxBytes} bytes`, true));
          });
          return;
        }
        chunks.push(chunk);
        return;
      }
      if (size + nl > maxBytes) {
        finish(() => {
          socket.destroy();
          reject(new DaemonTransportError('too_large', `${op}: response line exceeds ${maxBytes} bytes`, true));
        });
        return;
      }
      chunks.push(chunk.subarray(0, nl));
      const rest = chunk.subarray(nl + 1);
      socket.pause();
      finish(() => resolve({ line: Buffer.concat(chunks).toString('utf8'), rest }));
    };
    const onEnd = () =>
      finish(() => reject(new DaemonTransportError('closed', `${op}: the daemon closed the connection without an answer`, true)));
    const onError = (err: Error) =>
      finish(() =>
        reject(new DaemonTransportError('closed', `${op}: connection failed: ${err.message}`, true, { cause: err })),
      );
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('close', onEnd);
    socket.once('error', onError);
    socket.resume();
  });
}
