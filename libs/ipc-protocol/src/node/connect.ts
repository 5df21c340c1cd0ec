import { createConnection, type Socket } from 'node:net';
import { describeEndpoint, type SocketAddress } from './endpoint.js';
import { DaemonTransportError } from './errors.js';
import { graceTimeout } from './grace-timeout.js';

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
