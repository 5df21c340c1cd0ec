import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { expect, it } from 'vitest';
import { FAST_ENV, waitFor } from '../../test-support/daemon-fixture.js';

const CLI = resolve(import.meta.dirname, '../../../cli/bin/cccc.js');

// The readiness wait of a delivery (up to 10 s for an agent's first output) kept the daemon
// process alive after `shutdown` until it ran out. A real process, so the event loop decides.
it('shutdown ends the daemon process within 2 s while a delivery waits on a silent actor', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cccc-shutdown-'));
  const daemon = spawn(process.execPath, [CLI, 'daemon', 'run'], { env: { ...process.env, ...FAST_ENV, CCCC_HOME: home }, stdio: 'ignore' });
  const exited = new Promise<number>((r) => daemon.once('exit', () => r(Date.now())));
  try {
    const client = new DaemonClient({ home });
    await waitFor(async () => (await client.request({ v: 1, op: 'ping', args: {} }).catch(() => undefined))?.ok, 15_000, 'daemon up');
    const { group_id } = await client.call('group_create', { title: 'silent' });
    const scope = join(home, 'scope');
    mkdirSync(scope);
    await client.call('attach', { path: scope, group_id });
    // `cat` prints nothing until it gets input: never "ready" for a delivery.
    await client.call('actor_add', { group_id, actor_id: 'quiet', runtime: 'custom', command: ['cat'] });
    await client.call('group_start', { group_id });
    await client.call('send', { group_id, text: 'are you there?', to: ['quiet'], message_mode: 'send' });
    await new Promise((r) => setTimeout(r, 500)); // the delivery step is now in its readiness wait

    const t0 = Date.now();
    await client.call('shutdown', {});
    const elapsed = (await exited) - t0;
    expect(elapsed).toBeLessThan(2000);
  } finally {
    if (daemon.exitCode === null && daemon.signalCode === null) daemon.kill('SIGKILL');
    rmSync(home, { recursive: true, force: true });
  }
}, 60_000);
