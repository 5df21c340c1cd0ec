import { createConnection, type Socket } from 'node:net';
import type { DaemonEndpoint } from '../node/endpoint.js';
import type { IpcContractConnection } from './contract.js';

/** A raw line-level connection to a real daemon, for the contract kit. */
export function socketContractConnection(endpoint: DaemonEndpoint): Promise<IpcContractConnection> {
  return new Promise((resolve, reject) => {
    const socket: Socket =
      endpoint.transport === 'unix'
        ? createConnection({ path: endpoint.path })
        : createConnection({ host: endpoint.host, port: endpoint.port });
    const lines: string[] = [];
    const waiters: Array<(l: string | null) => void> = [];
    let pending = Buffer.alloc(0);
    let closed = false;
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (let nl = pending.indexOf(0x0a); nl !== -1; nl = pending.indexOf(0x0a)) {
        const line = pending.subarray(0, nl).toString('utf8');
        pending = pending.subarray(nl + 1);
        const w = waiters.shift();
        if (w) w(line);
        else lines.push(line);
      }
    });
    const onClose = () => {
      closed = true;
      while (waiters.length) waiters.shift()!(null);
    };
    socket.on('close', onClose);
    socket.on('error', () => {});
    socket.once('connect', () =>
      resolve({
        async send(raw) {
          if (closed) throw new Error('connection closed');
          await new Promise<void>((res) => {
            // A write may fail when the daemon closed on us mid-stream; the reader sees the close.
            if (socket.write(raw)) return res();
            const done = () => {
              socket.off('drain', done);
              socket.off('close', done);
              res();
            };
            socket.on('drain', done);
            socket.on('close', done);
          });
        },
        readLine() {
          const l = lines.shift();
          if (l !== undefined) return Promise.resolve(l);
          if (closed) return Promise.resolve(null);
          return new Promise((r) => waiters.push(r));
        },
        close: () => socket.destroy(),
      }),
    );
    socket.once('error', reject);
  });
}
