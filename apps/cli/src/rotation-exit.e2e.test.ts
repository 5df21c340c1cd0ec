import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { BIN, until } from './e2e-harness.js';

// Issue 20, point 6: a rotation's pre-read and gzip run on one maintenance thread that outlives
// the rotation. An idle thread must never be what keeps the daemon alive: `cccc daemon run`
// still exits on SIGTERM right after rotations, as it does without any.

vi.setConfig({ testTimeout: 90_000 });

const root = mkdtempSync(join(tmpdir(), 'cccc-rotation-exit-'));
let daemon: ChildProcess | undefined;
afterAll(() => {
  if (daemon && daemon.exitCode === null && daemon.signalCode === null) daemon.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

describe('the daemon after rotations', () => {
  it('exits on SIGTERM with the maintenance thread up', async () => {
    daemon = spawn(process.execPath, [BIN, 'daemon', 'run'], { env: { ...process.env, CCCC_HOME: root }, stdio: ['ignore', 'ignore', 'pipe'] });
    const client = new DaemonClient({ home: root });
    await until(async () => (await client.call('ping', {}).catch(() => undefined)) !== undefined, 'the daemon answers ping', 30_000);
    const gid = (await client.call('group_create', { title: 'rotations' })).group_id;
    await client.call('actor_add', { group_id: gid, actor_id: 'peer1', runtime: 'custom', command: ['true'] });
    // Two rotations: the second pre-reads the active file and gzips the first segment.
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 20; i++) await client.call('send', { group_id: gid, text: `round ${round} message ${i}`, to: ['peer1'], message_mode: 'mail' });
      await client.call('ledger_compact', { group_id: gid, force: true, reason: 'test' });
    }
    expect(readdirSync(join(root, 'groups', gid, 'state/ledger/segments')).some((name) => name.endsWith('.jsonl.gz'))).toBe(true);

    daemon.kill('SIGTERM');
    await until(() => daemon!.exitCode !== null || daemon!.signalCode !== null, 'the daemon exits', 15_000);
    expect(daemon.exitCode).toBe(0);
  });
});
