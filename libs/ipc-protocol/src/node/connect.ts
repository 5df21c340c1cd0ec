import { createConnection, type Socket } from 'node:net';
import { describeEndpoint, type SocketAddress } from './endpoint.js';
import { DaemonTransportError } from './errors.js';

/**
 * A timeout that counts only after pending I/O had one more turn: a starved process can wake up
 * late with its timer and its socket both due, and timers run before I/O callbacks (setImmediate
 * runs after the poll phase). The callback must be a no-op once the wait is settled.
 */
export function graceTimeout(ms: number, onTimeout: () => void): NodeJS.Timeout {
  return setTimeout(() => setImmediate(onTimeout), ms);
}

/** The errno-style code of a failed connect (`ETIMEDOUT` for our own timeout). */
export function connectFailureCode(error: DaemonTransportError): string {
  return (error.cause as NodeJS.ErrnoException | undefined)?.code ?? 'unknown';
}

/** One connect attempt within `timeoutMs`; a failure is `connect`, nothing sent. */
export function connectSocket(endpoint: SocketAddress, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = 'path' in endpoint ? createConnection({ path: endpoint.path }) : createConnection({ host: endpoint.host, port: endpoint.port });
    let settled = false;
    const finish = (cause?: NodeJS.ErrnoException, detail = cause?.code ?? cause?.message): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.off('error', finish);
      if (!cause) return resolve(socket);
      socket.destroy();
      reject(new DaemonTransportError('connect', `cannot connect to the daemon (${detail}) at ${describeEndpoint(endpoint)}`, false, { cause }));
    };
    const timer = graceTimeout(timeoutMs, () =>
      finish(Object.assign(new Error(`connect timed out after ${timeoutMs} ms`), { code: 'ETIMEDOUT' }), `timed out after ${timeoutMs} ms`),
    );
    socket.once('connect', () => finish());
    socket.once('error', finish);
  });
}
