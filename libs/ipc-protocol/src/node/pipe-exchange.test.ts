import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DaemonTransportError } from './errors.js';
import { exchangeLine, type LineExchangeOptions } from './line-exchange.js';
import { exchangeOneShot } from './one-shot-exchange.js';
import { findPipeBindings } from './pipe-bindings.js';
import { exchangeOverPipe } from './pipe-exchange.js';

// The pipe handle's exchange and node:net's, held to one contract over real unix sockets: the
// same answers, the same failures with the same words. pipe-bindings.test.ts covers when the
// handle is used at all.

const pipe = findPipeBindings();
const transports: [string, (path: string, line: string, options: LineExchangeOptions) => Promise<string>][] = [
  ['node:net', async (path, line, options) => {
    const { line: answer, socket } = await exchangeLine({ path }, line, options);
    socket.destroy();
    return answer;
  }],
  ['pipe handle', (path, line, options) => exchangeOverPipe(pipe!, path, line, options)],
];

let dir: string;
let servers: Server[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cccc-pipe-'));
});
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** A unix socket server; `received` collects what each connection sent. */
async function serve(name: string, onConnection: (socket: Socket, received: () => string) => void): Promise<{ path: string; received: string[] }> {
  const path = join(dir, name);
  const received: string[] = [];
  const server = createServer((socket) => {
    const chunks: Buffer[] = [];
    const index = received.push('') - 1;
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      received[index] = Buffer.concat(chunks).toString('utf8');
    });
    onConnection(socket, () => received[index]!);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return { path, received };
}

/** Answers once the whole request line is in. */
const onRequest = (socket: Socket, received: () => string, answer: (request: string) => void): void => {
  socket.on('data', () => {
    if (received().endsWith('\n')) answer(received());
  });
};

const options: LineExchangeOptions = { op: 'ping', timeoutMs: 2_000, maxLineBytes: 1024 };

it('the pipe handle is there on this node', () => {
  expect(pipe).toBeDefined();
});

describe.each(transports)('%s', (_name, exchange) => {
  it('answers with the first line, however the answer is cut into chunks (multi-byte characters split across them)', async () => {
    const answer = '{"text":"héllo – 你好 👋"}';
    const bytes = Buffer.from(answer + '\nafter');
    const { path } = await serve('chunks.sock', (socket, received) =>
      onRequest(socket, received, () => {
        let at = 0;
        const next = (): void => {
          if (at >= bytes.length) return;
          socket.write(bytes.subarray(at, at + 1));
          at += 1;
          setImmediate(next);
        };
        next();
      }),
    );
    expect(await exchange(path, '{"op":"ping"}\n', options)).toBe(answer);
  });

  it('sends a request line of several megabytes whole (a write the socket cannot take at once)', async () => {
    const request = JSON.stringify({ op: 'send', text: 'x'.repeat(3_000_000) }) + '\n';
    const { path, received } = await serve('big-request.sock', (socket, got) => onRequest(socket, got, (r) => socket.end(`{"length":${r.length}}\n`)));
    expect(await exchange(path, request, options)).toBe(`{"length":${request.length}}`);
    expect(received).toEqual([request]);
  });

  it('takes an answer that comes before the request was all written (a daemon refusing a line over its limit)', async () => {
    const { path } = await serve('early.sock', (socket) => socket.once('data', () => socket.end('{"ok":false,"error":{"code":"line_too_long"}}\n')));
    expect(await exchange(path, 'x'.repeat(8_000_000) + '\n', options)).toBe('{"ok":false,"error":{"code":"line_too_long"}}');
  });

  it('takes an answer up to the cap in many reads, and refuses one over it as too_large', async () => {
    const big = { ...options, maxLineBytes: 2_000_000 };
    const fits = 'a'.repeat(2_000_000);
    const { path } = await serve('big-answer.sock', (socket, got) => onRequest(socket, got, () => socket.write(fits + '\n')));
    expect(await exchange(path, 'x\n', big)).toBe(fits);
    const over = await serve('over.sock', (socket, got) => onRequest(socket, got, () => socket.write('a'.repeat(2_000_001) + '\n')));
    await expect(exchange(over.path, 'x\n', big)).rejects.toMatchObject({ failure: 'too_large', requestSent: true, message: 'ping: response line exceeds 2000000 bytes' });
    const endless = await serve('endless.sock', (socket, got) => onRequest(socket, got, () => socket.write('a'.repeat(2_100_000))));
    await expect(exchange(endless.path, 'x\n', big)).rejects.toMatchObject({ failure: 'too_large' });
  });

  it('a daemon that closes without an answer: closed, sent', async () => {
    const { path } = await serve('hangup.sock', (socket, got) => onRequest(socket, got, () => socket.end()));
    await expect(exchange(path, 'x\n', options)).rejects.toMatchObject({
      failure: 'closed',
      requestSent: true,
      message: 'ping: the daemon closed the connection without an answer',
    });
  });

  it('a daemon that drops the connection while the request is still being written: closed, sent', async () => {
    const { path } = await serve('drop.sock', (socket) => socket.once('data', () => socket.destroy()));
    const err = await exchange(path, 'x'.repeat(4_000_000) + '\n', options).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DaemonTransportError);
    expect(err).toMatchObject({ failure: 'closed', requestSent: true });
  });

  it('a silent daemon: timeout within the whole budget', async () => {
    const { path } = await serve('silent.sock', () => {});
    const started = Date.now();
    await expect(exchange(path, 'x\n', { ...options, timeoutMs: 150 })).rejects.toMatchObject({ failure: 'timeout', requestSent: true, message: 'ping: no answer within 150 ms' });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('retries the connect until the daemon listens, within the budget', async () => {
    const path = join(dir, 'late.sock');
    setTimeout(() => void serve('late.sock', (socket, got) => onRequest(socket, got, () => socket.end('{"ok":true}\n'))), 60);
    expect(await exchange(path, 'x\n', { ...options, attempts: 8, retryDelayMs: 20 })).toBe('{"ok":true}');
  });

  it('words a failed connect as node:net does: a missing socket, a file that is not one, a stale one, a name too long', async () => {
    const notSocket = join(dir, 'plain-file');
    writeFileSync(notSocket, '');
    const stale = join(dir, 'stale.sock');
    // A socket file whose listener was killed: it stays behind, and nobody accepts on it.
    const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(stale)}, () => console.log('up'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => child.stdout!.once('data', resolve));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const tooLong = join(dir, 'x'.repeat(120) + '.sock');
    for (const [path, code] of [[join(dir, 'none.sock'), 'ENOENT'], [notSocket, 'ECONNREFUSED'], [stale, 'ECONNREFUSED'], [tooLong, undefined]] as const) {
      const err = await exchange(path, 'x\n', { ...options, attempts: 2, retryDelayMs: 1 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DaemonTransportError);
      expect(err).toMatchObject({ failure: 'connect', requestSent: false });
      if (code) expect((err as Error).message).toBe(`cannot connect to the daemon (${code}) at unix:${path}`);
      expect(((err as Error).cause as NodeJS.ErrnoException).code).toMatch(/^E[A-Z]+$/);
    }
  });
});

describe('the two transports', () => {
  it('fail a connect with the same words and causes', async () => {
    const paths = [join(dir, 'none.sock'), join(dir, 'y'.repeat(120))];
    for (const path of paths) {
      const [viaNet, viaPipe] = await Promise.all(transports.map(([, exchange]) => exchange(path, 'x\n', options).catch((e: Error) => e)));
      expect((viaPipe as Error).message).toBe((viaNet as Error).message);
      expect(((viaPipe as Error).cause as NodeJS.ErrnoException).code).toBe(((viaNet as Error).cause as NodeJS.ErrnoException).code);
    }
  });
});

describe('exchangeOneShot', () => {
  it('reaches a tcp endpoint over node:net', async () => {
    const server = createServer((socket) => socket.once('data', () => socket.end('{"ok":"tcp"}\n')));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    expect(await exchangeOneShot({ host: '127.0.0.1', port }, 'x\n', options)).toBe('{"ok":"tcp"}');
  });

  // Issue 35: a process that starts, calls and exits (`cccc ping`, `cccc send`) spent ~4 ms of
  // its life on node:net's streams.
  it('spares a process that makes one call node:net, and one with --pending-deprecation takes node:net without a warning', async () => {
    const { path } = await serve('fresh.sock', (socket, got) => onRequest(socket, got, () => socket.end('{"ok":true}\n')));
    // The built entry (npm test builds first), as a `cccc` command loads it.
    const module = new URL('../../dist/call.js', import.meta.url).pathname;
    const script = `
      const { exchangeOneShot } = await import(${JSON.stringify(module)});
      const line = await exchangeOneShot({ path: ${JSON.stringify(path)} }, 'x\\n', { op: 'ping', timeoutMs: 2000, maxLineBytes: 1024 });
      console.log(JSON.stringify({ line, net: process.moduleLoadList.includes('NativeModule net') }));`;
    const run = async (flags: string[]): Promise<{ out: string; err: string }> => {
      const child = spawn(process.execPath, [...flags, '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (err += c));
      await new Promise((resolve) => child.once('exit', resolve));
      return { out, err };
    };
    expect(JSON.parse((await run([])).out)).toEqual({ line: '{"ok":true}', net: false });
    const { out, err } = await run(['--pending-deprecation']);
    expect(JSON.parse(out)).toEqual({ line: '{"ok":true}', net: true });
    expect(err).not.toMatch(/DEP0111|process\.binding/);
  });
});
