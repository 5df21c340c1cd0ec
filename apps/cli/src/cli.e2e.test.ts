import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { daemonPaths } from '@cccc/ipc-protocol/node';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../bin/cccc.js', import.meta.url));
const REPO = fileURLToPath(new URL('../../..', import.meta.url));

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cccc-cli-'));
});
afterEach(async () => {
  await cccc(['daemon', 'stop']).catch(() => undefined);
  rmSync(home, { recursive: true, force: true });
});

async function cccc(args: string[], env: NodeJS.ProcessEnv = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      env: { ...process.env, CCCC_HOME: home, ...env },
      timeout: 20_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout: string; stderr: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout, stderr: e.stderr };
  }
}

function snapshotDir(dir: string) {
  return Object.fromEntries(
    readdirSync(dir).map((f) => {
      const st = statSync(join(dir, f));
      return [f, st.isSocket() ? `socket:${st.ino}` : `${st.size}:${st.mtimeMs}:${readFileSync(join(dir, f), 'utf8')}`];
    }),
  );
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('cccc daemon (real processes)', () => {
  it('starts in the background, answers ping and status, and stops cleanly', async () => {
    expect((await cccc(['daemon', 'status'])).code).toBe(1);
    const start = await cccc(['daemon', 'start', '--json']);
    expect(start.code).toBe(0);
    const started = JSON.parse(start.stdout);
    expect(started).toMatchObject({ ok: true, already_running: false, pid: expect.any(Number) });
    const paths = daemonPaths(home);
    for (const f of [paths.addr, paths.sock, paths.pid, paths.log, paths.lock]) expect(existsSync(f), f).toBe(true);

    const ping = JSON.parse((await cccc(['ping', '--json'])).stdout);
    expect(ping).toMatchObject({ implementation: 'cccc-ts', ipc_v: 1, pid: started.pid, capabilities: expect.any(Object) });
    expect((await cccc(['daemon', 'status'])).stdout).toContain(`pid ${started.pid}`);
    expect(JSON.parse((await cccc(['daemon', 'start', '--json'])).stdout)).toMatchObject({ already_running: true });

    expect((await cccc(['daemon', 'stop'])).code).toBe(0);
    expect(isAlive(started.pid)).toBe(false);
    expect(existsSync(paths.sock)).toBe(false);
    expect(existsSync(paths.addr)).toBe(false);
  });

  it('a second daemon on the same home exits with a clear message and changes no file', async () => {
    await cccc(['daemon', 'start']);
    const dir = daemonPaths(home).dir;
    const before = snapshotDir(dir);
    const second = await cccc(['daemon', 'run']);
    expect(second.code).not.toBe(0);
    expect(second.stderr).toMatch(/already owns/);
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('cleans up the stale socket and descriptor of a daemon killed with SIGKILL', async () => {
    const { pid } = JSON.parse((await cccc(['daemon', 'start', '--json'])).stdout);
    process.kill(pid, 'SIGKILL');
    while (isAlive(pid)) await new Promise((r) => setTimeout(r, 10));
    const paths = daemonPaths(home);
    expect(existsSync(paths.sock)).toBe(true);
    expect(existsSync(paths.addr)).toBe(true);
    const restarted = await cccc(['daemon', 'start', '--json']);
    expect(restarted.code).toBe(0);
    const now = JSON.parse(restarted.stdout);
    expect(now.pid).not.toBe(pid);
    expect(JSON.parse(readFileSync(paths.addr, 'utf8')).pid).toBe(now.pid);
    expect(JSON.parse((await cccc(['ping', '--json'])).stdout).pid).toBe(now.pid);
  });

  it('shuts down cleanly on SIGTERM and SIGINT, removing the socket', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const child = spawn(process.execPath, [BIN, 'daemon', 'run'], { env: { ...process.env, CCCC_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
      await once(child.stdout!, 'data');
      expect(existsSync(daemonPaths(home).sock)).toBe(true);
      child.kill(signal);
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
      expect(existsSync(daemonPaths(home).sock)).toBe(false);
      expect(existsSync(daemonPaths(home).addr)).toBe(false);
    }
  });

  it('refuses a non-loopback TCP host before binding, with a non-zero exit', async () => {
    const res = await cccc(['daemon', 'run'], { CCCC_DAEMON_TRANSPORT: 'tcp', CCCC_DAEMON_HOST: '0.0.0.0' });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/non-loopback/);
    expect(existsSync(daemonPaths(home).addr)).toBe(false);
    const started = await cccc(['daemon', 'start'], { CCCC_DAEMON_TRANSPORT: 'tcp', CCCC_DAEMON_HOST: '10.1.2.3' });
    expect(started.code).not.toBe(0);
  });

  it('serves over loopback TCP, found through ccccd.addr.json', async () => {
    expect((await cccc(['daemon', 'start'], { CCCC_DAEMON_TRANSPORT: 'tcp' })).code).toBe(0);
    const addr = JSON.parse(readFileSync(daemonPaths(home).addr, 'utf8'));
    expect(addr).toMatchObject({ v: 1, transport: 'tcp', host: '127.0.0.1', port: expect.any(Number) });
    expect(addr.port).toBeGreaterThan(0);
    expect(existsSync(daemonPaths(home).sock)).toBe(false);
    expect(JSON.parse((await cccc(['ping', '--json'])).stdout)).toMatchObject({ ipc_v: 1 });
  });

  it('reports a missing daemon clearly with a non-zero exit', async () => {
    const res = await cccc(['ping']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/cannot connect to the CCCC daemon/);
  });

  it('works as `npx --no-install cccc` from the repository root', async () => {
    const { stdout } = await run('npx', ['--no-install', 'cccc', 'daemon', 'status', '--json'], {
      cwd: REPO,
      env: { ...process.env, CCCC_HOME: home },
    }).catch((e) => e);
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, running: false });
  });
});
