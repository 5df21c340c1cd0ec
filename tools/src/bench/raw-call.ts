import { createConnection } from 'node:net';

export type RawEndpoint = { path: string } | { host: string; port: number };

/** One request line over a fresh connection, resolving with the response line. */
export function rawCall(endpoint: RawEndpoint, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = 'path' in endpoint ? createConnection(endpoint.path) : createConnection(endpoint.port, endpoint.host);
    const chunks: Buffer[] = [];
    socket.on('connect', () => socket.write(line));
    socket.on('data', (chunk: Buffer) => {
      const nl = chunk.indexOf(0x0a);
      if (nl === -1) return void chunks.push(chunk);
      chunks.push(chunk.subarray(0, nl));
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.on('error', reject);
  });
}
