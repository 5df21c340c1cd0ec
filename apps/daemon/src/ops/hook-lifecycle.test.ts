import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { actorHookKey } from '@cccc/hook-fence';
import { agentShim } from '../hooks/agent-shim.js';
import { runtimeFixture, screenOf, waitFor } from '../../test-support/daemon-fixture.js';

// The rest of Claude's lifecycle end to end, every event fired by the fake agent playing Claude
// Code through the built `cccc hook claude-state`: a permission dialog (PermissionRequest and a
// permission_prompt Notification) answered at the terminal, a failing tool, a subagent, the
// idle_prompt Notification, and SessionEnd when the agent exits. (Codex's subagents: codex-hooks.test.ts.)

const CLI = resolve(import.meta.dirname, '../../../cli/bin/cccc.js');
type Fx = Awaited<ReturnType<typeof runtimeFixture>>;


const statePath = (fx: Fx, gid: string) => join(fx.home, 'daemon', 'claude-hook-state', `${actorHookKey(gid, 'peer1')}.json`);
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const state = (fx: Fx, gid: string) => (existsSync(statePath(fx, gid)) ? readJson(statePath(fx, gid)) : null);
const snapshot = async (fx: Fx, gid: string) => (await fx.client.call('runtime_activity_snapshot', { group_id: gid })).events;

describe('claude lifecycle hooks from the fake agent (real PTY, real daemon)', () => {
  let fx: Fx | undefined;
  afterEach(async () => {
    await fx?.[Symbol.asyncDispose]();
    fx = undefined;
  });

  it('permission dialog, failing tool, subagent, idle prompt and session end', { timeout: 180_000 }, async () => {
    fx = await runtimeFixture({}, { cliEntry: CLI });
    const { group_id: gid } = await fx.client.call('group_create', { title: 'lifecycle' });
    const scope = join(fx.home, 'scopes', gid);
    mkdirSync(scope, { recursive: true });
    await fx.client.call('attach', { path: scope, group_id: gid });
    const shim = agentShim(join(fx.home, 'bin'), 'claude', { args: ['--idle-prompt-ms', '300'] });
    await fx.client.call('actor_add', { group_id: gid, actor_id: 'peer1', runtime: 'custom', command: [shim] });
    await fx.client.call('group_start', { group_id: gid });
    const sessionId = await waitFor(() => state(fx!, gid)?.session_id, 20_000, 'SessionStart');
    const pty = () => fx!.services.runtimes.get(gid, 'peer1')!.session!.pty;

    // A permission dialog: waiting, with the tool waiting in the activity channel.
    await fx.client.call('send', { group_id: gid, text: 'please fake:permission', to: ['peer1'], message_mode: 'send' });
    const waiting = await waitFor(() => (state(fx!, gid)?.event === 'Notification' && state(fx!, gid)?.status === 'waiting' ? state(fx!, gid) : null), 30_000, 'permission prompt');
    expect(waiting.operation_id).toMatch(/^toolu_/);
    expect(waiting.turn_id).not.toBeNull();
    const pendingTool = (await snapshot(fx, gid)).find((e) => e.kind === 'tool' && e.operation_id === waiting.operation_id);
    expect(pendingTool).toMatchObject({ status: 'waiting', event_type: 'PermissionRequest', tool_name: 'Bash', session_id: sessionId });
    await waitFor(async () => /permission: allow Bash\?/.test(await screenOf(fx!, gid, 'peer1')), 10_000, 'the dialog on screen');

    // Answered at the terminal: the tool completes, the turn stops, then the idle prompt fires.
    await pty().write(Buffer.from('y'));
    await waitFor(() => {
      const s = state(fx!, gid);
      return s?.event === 'Notification' && s.status === 'idle' && s.operation_id === null ? s : null;
    }, 30_000, 'idle_prompt after the turn');
    const completed = (await snapshot(fx, gid)).find((e) => e.kind === 'tool' && e.operation_id === waiting.operation_id);
    expect(completed).toMatchObject({ status: 'completed', event_type: 'PostToolUse' });

    // A failing tool (and a subagent, which Claude's state follows but the ticker does not show).
    await fx.client.call('send', { group_id: gid, text: 'fake:subagent then fake:fail', to: ['peer1'], message_mode: 'send' });
    const failed = await waitFor(
      async () => (await snapshot(fx!, gid)).find((e) => e.kind === 'tool' && e.status === 'failed'),
      30_000,
      'failed tool',
    );
    expect(failed).toMatchObject({ event_type: 'PostToolUseFailure', tool_name: 'Bash', session_id: sessionId });
    expect((await snapshot(fx, gid)).some((e) => e.kind === 'subagent')).toBe(false);
    await waitFor(() => state(fx!, gid)?.status === 'idle', 20_000, 'idle again');

    // Ctrl-C ends the agent: SessionEnd closes the session while its PTY child is still alive.
    await pty().write(Buffer.from('\x03'));
    const ended = await waitFor(() => (state(fx!, gid)?.event === 'SessionEnd' ? state(fx!, gid) : null), 20_000, 'SessionEnd');
    expect(ended).toMatchObject({ status: 'stopped', session_closed: true, session_id: sessionId });
    expect(readFileSync(statePath(fx, gid), 'utf8')).not.toMatch(/please|fake:/);
  });

  it('a claude older than 2.1.141 launches unhooked and is marked so', { timeout: 120_000 }, async () => {
    fx = await runtimeFixture({}, { cliEntry: CLI });
    const { group_id: gid } = await fx.client.call('group_create', { title: 'old claude' });
    const scope = join(fx.home, 'scopes', gid);
    mkdirSync(scope, { recursive: true });
    await fx.client.call('attach', { path: scope, group_id: gid });
    const shim = agentShim(join(fx.home, 'bin'), 'claude', { env: { FAKE_AGENT_VERSION: '2.1.140' } });
    await fx.client.call('actor_add', { group_id: gid, actor_id: 'peer1', runtime: 'custom', command: [shim] });
    await fx.client.call('group_start', { group_id: gid });
    await waitFor(async () => /fake-agent ready/.test(await screenOf(fx!, gid, 'peer1')), 20_000, 'the unhooked agent to run');
    const record = readJson(join(fx.home, 'daemon', 'runtime-hook-launch', `${actorHookKey(gid, 'peer1')}.json`));
    expect(record).toMatchObject({ runtime: 'claude', hook_enabled: false, pid: fx.services.runtimes.get(gid, 'peer1')?.session?.pid });
    expect(existsSync(statePath(fx, gid))).toBe(false);
    const argv = readFileSync(`/proc/${record.pid}/cmdline`, 'utf8').split('\0');
    expect(argv).not.toContain('--settings');
  });
});
