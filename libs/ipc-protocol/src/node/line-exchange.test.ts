import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DaemonTransportError } from './errors.js';
import { exchangeLine } from './line-exchange.js';

// The one-line exchange shared by the DaemonClient and `cccc hook` (whose own budgets are tested
// in apps/cli/src/hook-fast/state-hook.test.ts), over a real unix socket.

let dir: string;
let server: Server | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cccc-exchange-'));
});
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const options = { op: 'ping', timeoutMs: 2_000, maxLineBytes: 1024 };

describe('exchangeLine', () => {
  it('answers with the first line, what followed it, and the paused socket (an upgrade reads on)', async () => {
    const path = join(dir, 's.sock');
    server = createServer((socket) => socket.once('data', () => socket.write('{"ok":true}\nstream-start')));
    await new Promise<void>((r) => server!.listen(path, () => r()));
    const { line, rest, socket } = await exchangeLine({ path }, '{"op":"ping"}\n', options);
    expect(line).toBe('{"ok":true}');
    expect(rest.toString()).toBe('stream-start');
    expect(socket.isPaused()).toBe(true);
    socket.destroy();
  });

  it('retries only the connect, within the whole budget, and says nothing was sent', async () => {
    const path = join(dir, 'late.sock');
    setTimeout(() => {
      server = createServer((socket) => socket.once('data', () => socket.end('{"ok":true}\n')));
      server.listen(path);
    }, 60);
    const { line, socket } = await exchangeLine({ path }, 'x\n', { ...options, attempts: 6, retryDelayMs: 20 });
    socket.destroy();
    expect(line).toBe('{"ok":true}');
    const err = await exchangeLine({ path: join(dir, 'none.sock') }, 'x\n', { ...options, attempts: 2, retryDelayMs: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DaemonTransportError);
    expect(err).toMatchObject({ failure: 'connect', requestSent: false, message: expect.stringMatching(/^cannot connect to the daemon \(ENOENT\) at unix:/) });
  });

  it('an answer over the line cap is too_large, sent', async () => {
    const path = join(dir, 'big.sock');
    server = createServer((socket) => socket.once('data', () => socket.write('x'.repeat(4096))));
    await new Promise<void>((r) => server!.listen(path, () => r()));
    await expect(exchangeLine({ path }, 'x\n', options)).rejects.toMatchObject({ failure: 'too_large', requestSent: true });
  });
});
