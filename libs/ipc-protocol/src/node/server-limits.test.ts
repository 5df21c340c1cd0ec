import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpRouter } from '../router.js';
import { StreamUpgrade } from '../upgrade.js';
import { IpcServer } from './server.js';

let dir: string;
let server: IpcServer;
const sockets: Socket[] = [];

function router(): OpRouter {
  return new OpRouter()
    .register('ping', () => ({ version: '0', implementation: 'cccc-ts', pid: 1, ts: 't', ipc_v: 1 as const, capabilities: {} }))
    .register('events_stream', () => new StreamUpgrade({ group_id: 'g' }, () => {}));
}

async function start(options: ConstructorParameters<typeof IpcServer>[1]): Promise<string> {
  server = new IpcServer(router(), options);
  const path = join(dir, 's.sock');
  await server.listen({ path });
  return path;
}

/** A raw connection that records what it receives and whether the daemon closed it. */
function connect(path: string): Promise<{ socket: Socket; received: () => string; closed: () => boolean }> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    sockets.push(socket);
    let text = '';
    let closed = false;
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (text += d));
    socket.on('close', () => (closed = true));
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, received: () => text, closed: () => closed }));
    socket.once('error', reject);
  });
}

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(10);
  }
}

const PING = '{"v":1,"op":"ping","args":{}}\n';

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cccc-server-limits-'));
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('IpcServer under idle and slow peers (issue 20)', () => {
  it('closes a connection that sends nothing, and one that never finishes its line, with request_timeout', async () => {
    const path = await start({ handshakeTimeoutMs: 200 });
    const silent = await connect(path);
    const slowloris = await connect(path);
    slowloris.socket.write('{"v":1,"op":"pi');
    const trickle = setInterval(() => slowloris.socket.write(' '), 50);
    try {
      await until(() => silent.closed() && slowloris.closed());
    } finally {
      clearInterval(trickle);
    }
    for (const c of [silent, slowloris]) expect(JSON.parse(c.received())).toMatchObject({ ok: false, error: { code: 'request_timeout', details: { timeout_ms: 200 } } });
    await until(() => server.connectionCount === 0);
  });

  it('keeps a connection that completes its lines, idle between requests, and a long-lived stream', async () => {
    const path = await start({ handshakeTimeoutMs: 150 });
    const client = await connect(path);
    client.socket.write(PING);
    await until(() => client.received().split('\n').length === 2);
    await sleep(400);
    client.socket.write(PING);
    await until(() => client.received().split('\n').length === 3);
    const stream = await connect(path);
    stream.socket.write('{"v":1,"op":"events_stream","args":{"group_id":"g"}}\n');
    await until(() => stream.received().includes('"ok":true'));
    await sleep(400);
    expect([client.closed(), stream.closed()]).toEqual([false, false]);
  });

  it('caps concurrent connections with a clear refusal, and serves again once one closes', async () => {
    const path = await start({ maxConnections: 3 });
    const held = await Promise.all([connect(path), connect(path), connect(path)]);
    await until(() => server.connectionCount === 3);
    const extra = await connect(path);
    await until(() => extra.closed());
    expect(JSON.parse(extra.received())).toMatchObject({ ok: false, error: { code: 'too_many_connections', details: { limit: 3 } } });
    held[0]!.socket.destroy();
    await until(() => server.connectionCount === 2);
    const next = await connect(path);
    next.socket.write(PING);
    await until(() => next.received().includes('"ok":true'));
  });

  it('serves 500 concurrent clients under the default cap', async () => {
    const path = await start({});
    const clients = await Promise.all(Array.from({ length: 500 }, () => connect(path)));
    for (const c of clients) c.socket.write(PING);
    await until(() => clients.every((c) => c.received().includes('"ok":true')), 10_000);
  });
});
