import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { expect, it } from 'vitest';
import { startDaemonFixture } from '../../test-support/daemon-fixture.js';
import { fakeAgentGroup, FAST_ENV, isAlive, waitFor } from '../../test-support/daemon-fixture.js';

const CLI = resolve(import.meta.dirname, '../../../cli/bin/cccc.js');

it('after kill -9 of the daemon process, the next daemon retires its orphaned actor', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cccc-crash-'));
  const daemon = spawn(process.execPath, [CLI, 'daemon', 'run'], { env: { ...process.env, ...FAST_ENV, CCCC_HOME: home }, stdio: 'ignore' });
  try {
    const client = new DaemonClient({ home });
    await waitFor(async () => (await client.request({ v: 1, op: 'ping', args: {} }).catch(() => undefined))?.ok, 15_000, 'daemon up');
    const fake = { home, client, ledgerLines: () => [] } as never;
    const gid = await fakeAgentGroup(fake);
    await client.call('group_start', { group_id: gid });
    const list = await client.call('actor_list', { group_id: gid });
    expect(list.actors[0]?.running).toBe(true);
    const record = JSON.parse((await import('node:fs')).readFileSync(join(home, 'groups', gid, 'state', 'runners', 'pty', 'peer1.json'), 'utf8'));
    daemon.kill('SIGKILL');
    await waitFor(() => daemon.exitCode !== null || daemon.signalCode !== null, 5000, 'daemon death');
    expect(isAlive(record.pid)).toBe(true);

    const next = await startDaemonFixture({ home, env: FAST_ENV });
    try {
      await waitFor(() => !isAlive(record.pid), 5000, 'orphan gone');
      // the group is still running, so its enabled actor runs again under the new daemon
      const pid = next.services.runtimes.get(gid, 'peer1')?.session?.pid;
      expect(pid).toBeDefined();
      expect(pid).not.toBe(record.pid);
    } finally {
      await next[Symbol.asyncDispose]();
    }
  } finally {
    if (daemon.exitCode === null && daemon.signalCode === null) daemon.kill('SIGKILL');
    rmSync(home, { recursive: true, force: true });
  }
}, 60_000);
