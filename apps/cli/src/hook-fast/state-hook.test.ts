import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exchangeLine, hookEndpoint } from './state-hook.js';

// The hook's one request over a real unix socket: an answer, silence, a hang-up, no daemon.

let dir: string;
let server: Server | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cccc-hookx-'));
});
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function listen(onLine: (line: string, reply: (s: string) => void, hangUp: () => void) => void): Promise<string> {
  const path = join(dir, 's.sock');
  server = createServer((socket) => {
    let buf = '';
    socket.on('data', (d) => {
      buf += d;
      if (buf.includes('\n')) onLine(buf.slice(0, buf.indexOf('\n')), (s) => socket.write(s), () => socket.end());
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server!.listen(path, () => r()));
  return path;
}

describe('exchangeLine', () => {
  it('sends one line and resolves with the first answer line', async () => {
    const seen: string[] = [];
    const path = await listen((line, reply) => {
      seen.push(line);
      reply('{"v":1,"ok":true}\n{"extra":1}\n');
    });
    expect(await exchangeLine({ path }, '{"v":1,"op":"x"}\n')).toBe('{"v":1,"ok":true}');
    expect(seen).toEqual(['{"v":1,"op":"x"}']);
  });

  it('gives up on a silent daemon after the answer budget, and on a hang-up', async () => {
    const silent = await listen(() => undefined);
    const t = Date.now();
    await expect(exchangeLine({ path: silent }, 'x\n', 300, 400)).rejects.toThrow(/no answer within 400 ms/);
    expect(Date.now() - t).toBeLessThan(5_000);
    await new Promise<void>((r) => server!.close(() => r()));
    rmSync(silent, { force: true });
    const hangUp = await listen((_l, _r, end) => end());
    await expect(exchangeLine({ path: hangUp }, 'x\n')).rejects.toThrow(/closed the connection without an answer/);
  });

  it('no daemon: a connect error, no wait', async () => {
    await expect(exchangeLine({ path: join(dir, 'none.sock') }, 'x\n')).rejects.toThrow(/cannot connect to the daemon \(ENOENT\)/);
  });

  it('endpoint discovery: the addr descriptor, else the default socket', () => {
    expect(hookEndpoint(dir)).toEqual({ path: `${dir}/daemon/ccccd.sock` });
    mkdirSync(join(dir, 'daemon'));
    writeFileSync(join(dir, 'daemon', 'ccccd.addr.json'), JSON.stringify({ v: 1, transport: 'tcp', host: '127.0.0.1', port: 4321 }));
    expect(hookEndpoint(dir)).toEqual({ host: '127.0.0.1', port: 4321 });
    writeFileSync(join(dir, 'daemon', 'ccccd.addr.json'), JSON.stringify({ v: 1, transport: 'unix', path: '/x.sock' }));
    expect(hookEndpoint(dir)).toEqual({ path: '/x.sock' });
    writeFileSync(join(dir, 'daemon', 'ccccd.addr.json'), '{garbage');
    expect(hookEndpoint(dir)).toEqual({ path: `${dir}/daemon/ccccd.sock` });
  });
});
