import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callOp } from './call-op.js';
import { DaemonClient, type DaemonClientOptions } from './client.js';
import { discoverEndpoint } from './discover.js';
import { DaemonCallError, DaemonTransportError } from './errors.js';
import { resolveCcccHome } from './home.js';

let home: string;
const servers: Server[] = [];

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cccc-client-'));
  mkdirSync(join(home, 'daemon'));
});
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
  rmSync(home, { recursive: true, force: true });
});

function serve(path: string, onConnection: (socket: Socket, requests: string[]) => void) {
  const requests: string[] = [];
  const server = createServer((socket) => {
    socket.on('error', () => {});
    socket.on('data', (c) => requests.push(c.toString()));
    onConnection(socket, requests);
  });
  servers.push(server);
  return new Promise<{ requests: string[]; connections: () => number }>((resolve) => {
    let connections = 0;
    server.on('connection', () => connections++);
    server.listen(path, () => resolve({ requests, connections: () => connections }));
  });
}

describe('endpoint discovery (§3)', () => {
  it('uses CCCC_HOME, else ~/.cccc', () => {
    expect(resolveCcccHome({ CCCC_HOME: '/x/y' })).toBe('/x/y');
    expect(resolveCcccHome({ CCCC_HOME: '  ' })).toMatch(/\.cccc$/);
    expect(resolveCcccHome({})).toMatch(/\.cccc$/);
  });

  it('reads the descriptor and falls back to the default socket when it is missing or invalid', () => {
    expect(discoverEndpoint(home)).toEqual({ transport: 'unix', path: join(home, 'daemon', 'ccccd.sock') });
    writeFileSync(join(home, 'daemon', 'ccccd.addr.json'), '{"v":1,"transport":"tcp","host":"127.0.0.1","port":9123,"pid":1,"extra":true}');
    expect(discoverEndpoint(home)).toEqual({ transport: 'tcp', host: '127.0.0.1', port: 9123 });
    writeFileSync(join(home, 'daemon', 'ccccd.addr.json'), '{"v":1,"transport":"tcp","host":"127.0.0.1","port":0}');
    expect(discoverEndpoint(home).transport).toBe('unix');
    writeFileSync(join(home, 'daemon', 'ccccd.addr.json'), 'garbage');
    expect(discoverEndpoint(home).transport).toBe('unix');
  });
});

// A one-shot call behaves as DaemonClient.call does: same exchange, budgets, retries and errors.
type Caller = { call: DaemonClient['call'] };
const callers: [string, (options: DaemonClientOptions & { home: string }) => Caller][] = [
  ['DaemonClient.call', (options) => new DaemonClient(options)],
  ['callOp (./call)', (options) => ({ call: (op, args) => callOp(options.home, op, args, options) })],
];

describe.each(callers)('%s', (_name, caller) => {
  it('retries a connect failure, then succeeds once the socket appears', async () => {
    const path = join(home, 'daemon', 'ccccd.sock');
    const client = caller({ home, connectAttempts: 5, connectRetryDelayMs: 40 });
    const call = client.call('shutdown', {});
    setTimeout(() => {
      void serve(path, (socket) =>
        socket.once('data', () => socket.end('{"v":1,"ok":true,"result":{"message":"shutting down"},"error":null}\n')),
      );
    }, 30);
    await expect(call).resolves.toEqual({ message: 'shutting down' });
  });

  it('reports a connect failure as not sent', async () => {
    const client = caller({ home, connectAttempts: 2, connectRetryDelayMs: 1 });
    const err = await client.call('ping', {}).catch((e) => e);
    expect(err).toBeInstanceOf(DaemonTransportError);
    expect(err).toMatchObject({ failure: 'connect', requestSent: false });
    expect(err.message).toMatch(/^cannot connect to the CCCC daemon at .*ccccd\.sock \(.+\); is it running\? try: cccc daemon start$/);
  });

  it('never replays a request once bytes were written', async () => {
    const path = join(home, 'daemon', 'ccccd.sock');
    const srv = await serve(path, (socket) => socket.once('data', () => socket.destroy()));
    const client = caller({ home, connectAttempts: 5 });
    const err = await client.call('shutdown', {}).catch((e) => e);
    expect(err).toMatchObject({ failure: 'closed', requestSent: true });
    expect(srv.connections()).toBe(1);
    expect(srv.requests).toHaveLength(1);
  });

  it('times out a silent daemon', async () => {
    await serve(join(home, 'daemon', 'ccccd.sock'), () => {});
    const client = caller({ home, timeoutMs: 150 });
    await expect(client.call('ping', {})).rejects.toMatchObject({ failure: 'timeout', requestSent: true });
  });

  it('caps a response line at 4,000,000 bytes', async () => {
    await serve(join(home, 'daemon', 'ccccd.sock'), (socket) =>
      socket.once('data', () => socket.write(Buffer.alloc(4_100_000, 0x61))),
    );
    const client = caller({ home });
    await expect(client.call('ping', {})).rejects.toMatchObject({ failure: 'too_large' });
  });

  it('surfaces daemon errors with code and details', async () => {
    await serve(join(home, 'daemon', 'ccccd.sock'), (socket) =>
      socket.once('data', () =>
        socket.end('{"v":1,"ok":false,"result":{},"error":{"code":"missing_group_id","message":"missing group_id","details":{"a":1}}}\n'),
      ),
    );
    const err = await caller({ home }).call('ledger_snapshot', { group_id: '' }).catch((e) => e);
    expect(err).toBeInstanceOf(DaemonCallError);
    expect(err).toMatchObject({ code: 'missing_group_id', details: { a: 1 } });
  });

  it('rejects a malformed response envelope', async () => {
    await serve(join(home, 'daemon', 'ccccd.sock'), (socket) => socket.once('data', () => socket.end('{"v":1,"ok":true,"error":{"code":"x"}}\n')));
    await expect(caller({ home }).call('ping', {})).rejects.toMatchObject({ failure: 'protocol' });
  });
});
