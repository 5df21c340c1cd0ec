import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { BIN, until } from './e2e-harness.js';
import { moduleRecorder } from './module-recorder.js';

// A daemon at rest must not hold what only some requests need (issue 35, memory at rest): the
// ACP SDK, the headless terminal, node-pty, SQLite, tar and the bzip2 decoder load at their
// first use. The daemon runs as `cccc daemon run` does, with a preload that records every module
// the process loads, CommonJS requires and ESM imports alike.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

const LATE = ['@agentclientprotocol/sdk', '@xterm/headless', '@xterm/addon-serialize', 'node-pty', 'better-sqlite3', 'tar', 'unbzip2-stream'];

let root = '';
let daemon: ChildProcess | undefined;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'cccc-idle-footprint-'));
});
afterAll(() => {
  if (daemon && daemon.exitCode === null) daemon.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

describe('a daemon at rest', () => {
  it('has loaded none of the modules that only some requests need', async () => {
    const home = join(root, 'home');
    mkdirSync(home);
    const recorder = moduleRecorder(root);
    daemon = spawn(process.execPath, ['--require', recorder.preload, BIN, 'daemon', 'run'], {
      env: { ...process.env, CCCC_HOME: home },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const client = new DaemonClient({ home });
    await until(async () => (await client.call('ping', {}).catch(() => undefined)) !== undefined, 'the daemon answers ping', 30_000);
    await client.call('groups', {});
    daemon.kill('SIGTERM');
    await until(() => daemon!.exitCode !== null || daemon!.signalCode !== null, 'the daemon exits', 20_000);

    const lines = recorder.lines();
    const loaded = recorder.packages();
    // The recorder saw the daemon itself and its dependencies, so an empty answer below means something.
    expect(loaded).toContain('zod');
    expect(lines.some((l) => /@cccc\/daemon\/|apps\/daemon\/dist\//.test(l))).toBe(true);
    expect(LATE.filter((p) => loaded.has(p))).toEqual([]);
  });
});
