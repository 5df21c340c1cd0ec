import { once } from 'node:events';
import { createConnection } from 'node:net';
import type { RawEndpoint } from './raw-call.js';

/**
 * One long-lived NDJSON connection that sends a request line and resolves with its response
 * line, one request at a time: how the Web, SDK sessions and other long-lived clients call.
 */
export async function openLineConnection(endpoint: RawEndpoint) {
  const socket = 'path' in endpoint ? createConnection(endpoint.path) : createConnection(endpoint.port, endpoint.host);
  await once(socket, 'connect');
  socket.setEncoding('utf8');
  let pending = '';
  let answered: ((line: string) => void) | undefined;
  socket.on('data', (chunk: string) => {
    pending += chunk;
    const nl = pending.indexOf('\n');
    if (nl === -1) return;
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    const resolve = answered;
    answered = undefined;
    resolve?.(line);
  });
  return {
    call(line: string): Promise<string> {
      return new Promise((resolve) => {
        answered = resolve;
        socket.write(line);
      });
    },
    close(): void {
      socket.destroy();
    },
  };
}
