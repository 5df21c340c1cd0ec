import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { socketConnection } from './socket-connection.js';

describe('socketConnection', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });

  async function pair(): Promise<{ server: Socket; client: Socket }> {
    const dir = mkdtempSync(join(tmpdir(), 'sockconn-'));
    const path = join(dir, 's.sock');
    const srv = createServer();
    await new Promise<void>((resolve) => srv.listen(path, resolve));
    const accepted = new Promise<Socket>((resolve) => srv.once('connection', resolve));
    const client = createConnection(path);
    const server = await accepted;
    cleanups.push(() => {
      client.destroy();
      server.destroy();
      srv.close();
      rmSync(dir, { recursive: true, force: true });
    });
    return { server, client };
  }

  it('writev sends several chunks in order as one stream, with write semantics', async () => {
    const { server, client } = await pair();
    const conn = socketConnection(server, new Uint8Array());
    const chunks = [Buffer.from('one '), Buffer.alloc(100_000, 0x78), Buffer.from(' three')];
    const expected = Buffer.concat(chunks);
    const received: Buffer[] = [];
    const done = new Promise<void>((resolve) =>
      client.on('data', (d: Buffer) => {
        received.push(d);
        if (Buffer.concat(received).length >= expected.length) resolve();
      }),
    );
    expect(typeof conn.writev).toBe('function');
    conn.writev!(chunks);
    await done;
    expect(Buffer.concat(received).equals(expected)).toBe(true);
    conn.close();
    expect(conn.writev!([Buffer.from('late')])).toBe(false);
  });
});
