import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actorHookKey } from '@cccc/hook-fence';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { installFakeAgentAs } from '@cccc/pty-runtime/testing';
import { BIN, until, useDaemonHome } from './e2e-harness.js';

// Delivery confirmation through a daemon started the way users (and the Web e2e harness) start
// it: `cccc daemon start`, which runs `node <cli>/bin/cccc.js daemon run` and hands the daemon
// that entry. The daemon's own e2e names the hook entry itself, so only a CLI-started daemon
// shows which entry its injected hooks really run. When the hooks ran dist/cli.js (the entry the
// daemon used to be started with), every hook loaded the whole ESM command tree, and the agent's
// hooks run one after another, each killed after 3 s: on a loaded machine a fast agent's
// UserPromptSubmit came after a 10 s confirmation window (or SessionStart was killed and every
// later event fenced out), and the delivery read 'unconfirmed'.

const cli = useDaemonHome({ startDaemon: false });

/** The hook command the daemon injected into the running agent's `--settings` (its argv). */
function injectedHookCommand(pid: number): string {
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const settings = JSON.parse(argv[argv.indexOf('--settings') + 1]!) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
  // SessionStart always keeps the command hook (Claude never fires it over http; issue 35).
  return settings.hooks['SessionStart']!.at(-1)!.hooks[0]!.command;
}

describe('delivery confirmation with a CLI-started daemon', () => {
  it('a fast hooked agent confirms its delivery, and its hooks run the bin fast path', async () => {
    const started = await cli.cccc(['daemon', 'start'], { CCCC_DELIVERY_CONFIRM_MS: '10000' });
    expect(started.code, started.stderr).toBe(0);
    const home = cli.home();
    const client = new DaemonClient({ home });
    const { group_id: gid } = await client.call('group_create', { title: 'confirm' });
    const scope = join(home, 'scope');
    mkdirSync(scope, { recursive: true });
    await client.call('attach', { path: scope, group_id: gid });
    await client.call('actor_add', { group_id: gid, actor_id: 'fast', runtime: 'custom', command: [installFakeAgentAs(join(home, 'bin'), 'claude')] });
    await client.call('group_start', { group_id: gid });

    // The launch was hooked, and the hook is the committed shim (CommonJS fast path), not dist/cli.js.
    const launchFile = join(home, 'daemon', 'runtime-hook-launch', `${actorHookKey(gid, 'fast')}.json`);
    const launch = await until(() => (existsSync(launchFile) ? (JSON.parse(readFileSync(launchFile, 'utf8')) as { pid: number; hook_enabled: boolean }) : null), 'launch record', 60_000);
    expect(launch.hook_enabled).toBe(true);
    const command = injectedHookCommand(launch.pid);
    expect(command).toContain(BIN);
    expect(command).toMatch(/hook claude-state$/);
    expect(command).not.toMatch(/dist\/cli\.c?js/);

    const { event } = await client.call('send', { group_id: gid, text: 'please confirm', to: ['fast'], message_mode: 'send' });
    const status = await until(async () => {
      const { statuses } = await client.call('ledger_statuses', { group_id: gid, event_ids: [event.id] });
      return statuses[event.id]?.['fast']?.delivery_confirmation ? statuses[event.id]!['fast'] : null;
    }, 'a confirmation record', 90_000);
    expect(status).toMatchObject({ delivery_state: 'accepted', delivery_confirmation: 'confirmed' });
  }, 180_000);
});
