import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { actorHookKey } from '@cccc/hook-fence';
import { agentShim } from '../hooks/agent-shim.js';
import { runtimeFixture, screenOf, waitFor } from '../../test-support/daemon-fixture.js';

// Codex end to end: the fake agent playing Codex (installed as `codex`) is launched with the
// injected `-c hooks.*` arguments and trust entries, which it reads like Codex (it runs only
// trusted command-line hooks), and fires `cccc hook codex-state` (the built CLI) with Codex
// payloads; the daemon applies the launch, session, turn and operation fences.

const CLI = resolve(import.meta.dirname, '../../../cli/bin/cccc.js');
type Fx = Awaited<ReturnType<typeof runtimeFixture>>;
/** These suites drive the hooked native PTY path (a fake `codex`): the managed default is switched off. */
const NATIVE = { CCCC_CODEX_MANAGED: '0' };


async function codexGroup(fx: Fx, env: Record<string, string> = {}): Promise<string> {
  const { group_id } = await fx.client.call('group_create', { title: 'codex hooks' });
  const scope = join(fx.home, 'scopes', group_id);
  mkdirSync(scope, { recursive: true });
  await fx.client.call('attach', { path: scope, group_id });
  const shim = agentShim(join(fx.home, 'bin', group_id), 'codex', { env });
  await fx.client.call('actor_add', { group_id, actor_id: 'peer1', runtime: 'custom', command: [shim, '--search'] });
  return group_id;
}

const key = (gid: string) => actorHookKey(gid, 'peer1');
const launchPath = (fx: Fx, gid: string) => join(fx.home, 'daemon', 'runtime-hook-launch', `${key(gid)}.json`);
const statePath = (fx: Fx, gid: string) => join(fx.home, 'daemon', 'codex-hook-state', `${key(gid)}.json`);
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const readIf = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : null);
const snapshot = async (fx: Fx, gid: string) => (await fx.client.call('runtime_activity_snapshot', { group_id: gid })).events;
/** argv and environment of the running PTY child (the shim execs the fake agent in place). */
const procOf = (pid: number) => ({
  argv: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1),
  env: readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0'),
});

describe('codex hook injection (real PTY, real `cccc hook codex-state`)', () => {
  let fx: Fx | undefined;
  afterEach(async () => {
    await fx?.[Symbol.asyncDispose]();
    fx = undefined;
  });

  it('injects -c hooks.* with trust entries after the pre-probe; turns and tools flow through the fences', { timeout: 120_000 }, async () => {
    fx = await runtimeFixture(NATIVE, { cliEntry: CLI });
    const gid = await codexGroup(fx);
    await fx.client.call('group_start', { group_id: gid });
    const sessionId = await waitFor(() => (existsSync(statePath(fx!, gid)) ? readJson(statePath(fx!, gid)) : null)?.session_id, 20_000, 'SessionStart');
    const record = readJson(launchPath(fx, gid));
    expect(record).toMatchObject({ v: 1, group_id: gid, actor_id: 'peer1', runtime: 'codex', hook_enabled: true });
    expect(record.pid).toBe(fx.services.runtimes.get(gid, 'peer1')?.session?.pid);

    const proc = procOf(record.pid);
    expect(proc.env).toContain(`CCCC_HOOK_LAUNCH_TOKEN=${record.launch_token}`);
    const overrides = proc.argv.filter((_, i) => proc.argv[i - 1] === '-c');
    expect(overrides.filter((o) => o.startsWith('hooks.') && !o.startsWith('hooks.state='))).toHaveLength(9);
    expect(overrides.find((o) => o.startsWith('hooks.state='))).toContain('"/<session-flags>/config.toml:user_prompt_submit:0:0"={trusted_hash="sha256:');
    expect(proc.argv.at(-1)).toBe('--search');
    // All injected hooks were trusted: the agent would say so otherwise.
    expect(await screenOf(fx, gid, 'peer1')).not.toMatch(/need review/);

    await fx.client.call('send', { group_id: gid, text: 'CODEX-SECRET run it', to: ['peer1'], message_mode: 'send' });
    const events = await waitFor(
      async () => {
        const snap = await fx!.client.call('runtime_activity_snapshot', { group_id: gid });
        return snap.events.some((e) => e.kind === 'tool' && e.status === 'completed') ? snap.events : null;
      },
      30_000,
      'codex tool activity',
    );
    const tool = events.find((e) => e.kind === 'tool' && e.status === 'completed')!;
    expect(tool).toMatchObject({ runtime: 'codex', session_id: sessionId, tool_name: 'exec_command', event_type: 'PostToolUse' });
    expect(tool.operation_id).toMatch(/^call_/);
    expect(tool.activity_id).toBe(`codex:${sessionId}:tool:${tool.operation_id}`);
    const idle = await waitFor(() => {
      const s = readJson(statePath(fx!, gid));
      return s.event === 'Stop' ? s : null;
    }, 15_000, 'Stop');
    expect(idle).toMatchObject({ status: 'idle', operation_id: null, launch_token: record.launch_token });
    expect(idle.turn_generation).toBeGreaterThanOrEqual(1);
    expect(idle.seen_turn_ids).toContain(tool.turn_id);
    expect(readFileSync(statePath(fx, gid), 'utf8')).not.toContain('CODEX-SECRET');

    // A subagent, then a permission dialog (PermissionRequest on the open operation) answered
    // at the terminal.
    await fx.client.call('send', { group_id: gid, text: 'fake:subagent fake:permission', to: ['peer1'], message_mode: 'send' });
    const waiting = await waitFor(() => {
      const s = readJson(statePath(fx!, gid));
      return s.event === 'PermissionRequest' && s.status === 'waiting' ? s : null;
    }, 30_000, 'codex permission request');
    const asked = await snapshot(fx, gid);
    expect(asked.find((e) => e.kind === 'tool' && e.operation_id === waiting.operation_id)).toMatchObject({ status: 'waiting', turn_id: waiting.turn_id });
    expect(asked.find((e) => e.kind === 'subagent')).toMatchObject({ status: 'completed', event_type: 'SubagentStop', turn_id: waiting.turn_id });
    await waitFor(async () => /permission: allow exec_command\?/.test(await screenOf(fx!, gid, 'peer1')), 10_000, 'the dialog on screen');
    await fx.services.runtimes.get(gid, 'peer1')!.session!.pty.write(Buffer.from('y'));
    await waitFor(async () => (await snapshot(fx!, gid)).some((e) => e.operation_id === waiting.operation_id && e.status === 'completed'), 30_000, 'allowed tool');
    const done = await waitFor(() => {
      const s = readJson(statePath(fx!, gid));
      return s.event === 'Stop' && s.turn_id === waiting.turn_id ? s : null;
    }, 15_000, 'second Stop');

    // The turn fence: a tool event of the closed turn, or a replayed turn id, is stale.
    const before = readIf(statePath(fx, gid));
    const call = (payload: Record<string, string>) =>
      fx!.client.call('runtime_hook_event', { group_id: gid, actor_id: 'peer1', runtime: 'codex', launch_token: record.launch_token, payload: payload as never });
    expect(await call({ hook_event_name: 'PreToolUse', session_id: sessionId, turn_id: 'turn-forged', tool_use_id: 'call_x', tool_name: 'exec_command' })).toEqual({
      accepted: false,
      reason: 'turn_mismatch',
    });
    expect(await call({ hook_event_name: 'UserPromptSubmit', session_id: sessionId, turn_id: tool.turn_id! })).toEqual({ accepted: false, reason: 'stale_turn' });
    expect(await call({ hook_event_name: 'PostToolUse', session_id: sessionId, turn_id: done.turn_id, tool_use_id: waiting.operation_id, tool_name: 'exec_command' })).toEqual({
      accepted: false,
      reason: 'operation_mismatch',
    });
    expect(readIf(statePath(fx, gid))).toBe(before);
  });

  it('the default codex runtime command (found on PATH) is probed and hooked the same way', { timeout: 120_000 }, async () => {
    fx = await runtimeFixture(NATIVE, { cliEntry: CLI });
    const { group_id: gid } = await fx.client.call('group_create', { title: 'codex runtime' });
    const scope = join(fx.home, 'scopes', gid);
    mkdirSync(scope, { recursive: true });
    await fx.client.call('attach', { path: scope, group_id: gid });
    const dir = join(fx.home, 'bin', gid);
    agentShim(dir, 'codex');
    await fx.client.call('actor_add', { group_id: gid, actor_id: 'peer1', runtime: 'codex', env: { PATH: `${dir}:${process.env.PATH}` } });
    await fx.client.call('group_start', { group_id: gid });
    await waitFor(() => (existsSync(statePath(fx!, gid)) ? readJson(statePath(fx!, gid)) : null)?.session_id, 20_000, 'SessionStart');
    const record = readJson(launchPath(fx, gid));
    expect(record).toMatchObject({ runtime: 'codex', hook_enabled: true });
    const { argv } = procOf(record.pid);
    expect(argv).toContain('shell_environment_policy.inherit=all');
    expect(argv).toContain('--dangerously-bypass-approvals-and-sandbox');
    expect(argv.some((a) => a.startsWith('hooks.state='))).toBe(true);
    expect(await screenOf(fx, gid, 'peer1')).not.toMatch(/need review/);
  });

  it('a codex whose pre-probe fails launches unhooked and is marked so: no token, no hook state, events rejected', { timeout: 120_000 }, async () => {
    fx = await runtimeFixture(NATIVE, { cliEntry: CLI });
    const gid = await codexGroup(fx, { FAKE_AGENT_CODEX_HOOKS: 'unsupported' });
    await fx.client.call('group_start', { group_id: gid });
    await waitFor(async () => /fake-agent ready/.test(await screenOf(fx!, gid, 'peer1')), 20_000, 'the unhooked agent to run');
    const record = readJson(launchPath(fx, gid));
    expect(record).toMatchObject({ runtime: 'codex', hook_enabled: false, pid: fx.services.runtimes.get(gid, 'peer1')?.session?.pid });
    expect(existsSync(statePath(fx, gid))).toBe(false);
    const proc = procOf(record.pid);
    expect(proc.argv.some((a) => a.startsWith('hooks.'))).toBe(false);
    expect(proc.env.some((e) => e.startsWith('CCCC_HOOK_LAUNCH_TOKEN='))).toBe(false);
    const res = await fx.client.call('runtime_hook_event', {
      group_id: gid,
      actor_id: 'peer1',
      runtime: 'codex',
      launch_token: record.launch_token,
      payload: { hook_event_name: 'SessionStart', session_id: 's1' },
    });
    expect(res).toEqual({ accepted: false, reason: 'no_hooked_launch' });
    expect(existsSync(statePath(fx, gid))).toBe(false);
    const log = readFileSync(join(fx.home, 'daemon', 'ccccd.log'), 'utf8');
    expect(log).toMatch(/HookUnavailableSettings/);
  });
});
