import { createConnection, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeEndpoint, type DaemonEndpoint } from './endpoint.js';
import { DaemonTransportError } from './errors.js';

const RETRYABLE = new Set(['ECONNREFUSED', 'ENOENT', 'EAGAIN', 'ECONNRESET']);

export interface ConnectOptions {
  readonly timeoutMs: number;
  /** Attempts for connect failures only; nothing has been sent yet, so retrying is safe. */
  readonly attempts: number;
  readonly retryDelayMs: number;
}

function connectOnce(endpoint: DaemonEndpoint, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket =
      endpoint.transport === 'unix'
        ? createConnection({ path: endpoint.path })
        : createConnection({ host: endpoint.host, port: endpoint.port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(Object.assign(new Error(`connect timed out after ${timeoutMs} ms`), { code: 'ETIMEDOUT' }));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    });
  });
}

export async function connectEndpoint(endpoint: DaemonEndpoint, options: ConnectOptions): Promise<Socket> {
  let last: unknown;
  for (let attempt = 1; attempt <= Math.max(1, options.attempts); attempt++) {
    try {
      return await connectOnce(endpoint, options.timeoutMs);
    } catch (err) {
      last = err;
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (!RETRYABLE.has(code) || attempt >= options.attempts) break;
      await sleep(options.retryDelayMs * attempt);
    }
  }
  const code = (last as NodeJS.ErrnoException | undefined)?.code ?? 'unknown';
  throw new DaemonTransportError(
    'connect',
    `cannot connect to the CCCC daemon at ${describeEndpoint(endpoint)} (${code}); is it running? try: cccc daemon start`,
    false,
    { cause: last },
  );
}
