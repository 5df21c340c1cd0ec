import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { actorHookKey } from '@cccc/hook-fence';
import { opCatalog } from '@cccc/ipc-protocol';
import { DaemonCallError } from '@cccc/ipc-protocol/node';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import { claudeGroup as claudeGroupOf, hookedRuntimeFixture } from '../../test-support/claude-fixture.js';
import { runtimeFixture, waitFor } from '../../test-support/daemon-fixture.js';

// The real hook path end to end: a fake agent installed under the name `claude` is launched with
// the injected `--settings` hooks, runs `cccc hook claude-state` (the built CLI) for its lifecycle,
// and the daemon fences and records the activity.

type Fx = Awaited<ReturnType<typeof runtimeFixture>>;


const claudeGroup = (fx: Fx) => claudeGroupOf(fx, { title: 'hooks' });

const key = (gid: string) => actorHookKey(gid, 'peer1');
const launchPath = (fx: Fx, gid: string) => join(fx.home, 'daemon', 'runtime-hook-launch', `${key(gid)}.json`);
const statePath = (fx: Fx, gid: string) => join(fx.home, 'daemon', 'claude-hook-state', `${key(gid)}.json`);
const storePath = (fx: Fx, gid: string) => join(fx.home, 'groups', gid, 'state', 'runtime-activity', 'events.json');
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const readIf = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : null);

/** Start the group and wait for the launch's fenced SessionStart to land. */
async function startedWithSession(fx: Fx, gid: string): Promise<{ token: string; sessionId: string; pid: number }> {
  await fx.client.call('group_start', { group_id: gid });
  const state = await waitFor(() => (existsSync(statePath(fx, gid)) ? readJson(statePath(fx, gid)) : null)?.session_id, 15_000, 'SessionStart');
  const record = readJson(launchPath(fx, gid));
  return { token: record.launch_token, sessionId: state, pid: record.pid };
}

const hookEvent = (fx: Fx, gid: string, token: string, payload: Record<string, string>) =>
  fx.client.call('runtime_hook_event', { group_id: gid, actor_id: 'peer1', runtime: 'claude', launch_token: token, payload: payload as never });

describe('runtime hook events and the activity channel (real PTY, real `cccc hook`)', () => {
  let fx: Fx | undefined;
  afterEach(async () => {
    await fx?.[Symbol.asyncDispose]();
    fx = undefined;
  });

  it('advertises both ops in ping.capabilities', async () => {
    fx = await hookedRuntimeFixture();
    const caps = (await fx.client.call('ping', {})).capabilities as Record<string, unknown>;
    expect(caps.runtime_activity_snapshot).toBe(true);
    expect(caps.runtime_hook_event).toBe(true);
  });

  it('launch: fresh token in the env, the launch record names the PTY child pid; hooks flow into the snapshot; no prompt text stored', async () => {
    fx = await hookedRuntimeFixture();
    const gid = await claudeGroup(fx);
    const { token, pid } = await startedWithSession(fx, gid);
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(pid).toBe(fx.services.runtimes.get(gid, 'peer1')?.session?.pid);
    expect(readJson(launchPath(fx, gid))).toEqual({ v: 1, group_id: gid, actor_id: 'peer1', runtime: 'claude', launch_token: token, hook_enabled: true, pid });

    const secret = 'SECRET-PROMPT-42';
    await fx.client.call('send', { group_id: gid, text: secret, to: ['peer1'], message_mode: 'send' });
    const events = await waitFor(
      async () => {
        const snap = await fx!.client.call('runtime_activity_snapshot', { group_id: gid });
        return snap.events.some((e) => e.kind === 'tool' && e.status === 'completed') ? snap.events : null;
      },
      20_000,
      'tool activity',
    );
    opCatalog.runtime_activity_snapshot.result.parse({ events });
    const tool = events.find((e) => e.kind === 'tool' && e.status === 'completed')!;
    expect(tool).toMatchObject({ group_id: gid, actor_id: 'peer1', runtime: 'claude', tool_name: 'Bash', event_type: 'PostToolUse' });
    expect(tool.operation_id).toMatch(/^toolu_[0-9a-f]{24}$/);
    await waitFor(() => readJson(statePath(fx!, gid)).event === 'Stop', 10_000, 'Stop');
    expect(readJson(statePath(fx, gid)).status).toBe('idle');

    const stored = readFileSync(storePath(fx, gid), 'utf8') + readFileSync(statePath(fx, gid), 'utf8');
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain('echo');
  });

  it('forged and stale tokens, and events with no live PTY, are rejected and store nothing', async () => {
    fx = await hookedRuntimeFixture();
    const gid = await claudeGroup(fx);
    const first = await startedWithSession(fx, gid);
    const before = { store: readIf(storePath(fx, gid)), state: readIf(statePath(fx, gid)) };
    const tool = { hook_event_name: 'PreToolUse', session_id: first.sessionId, tool_use_id: 'toolu_forged', tool_name: 'Bash' };

    expect(await hookEvent(fx, gid, 'f'.repeat(32), tool)).toEqual({ accepted: false, reason: 'launch_token_mismatch' });
    expect({ store: readIf(storePath(fx, gid)), state: readIf(statePath(fx, gid)) }).toEqual(before);

    // A restart is a new launch: the previous token no longer counts.
    await fx.client.call('actor_restart', { group_id: gid, actor_id: 'peer1' });
    const second = await waitFor(() => {
      const s = existsSync(statePath(fx!, gid)) ? readJson(statePath(fx!, gid)) : null;
      return s && s.launch_token !== first.token && s.session_id ? s : null;
    }, 15_000, 'second SessionStart');
    const afterRestart = { store: readIf(storePath(fx, gid)), state: readIf(statePath(fx, gid)) };
    expect(await hookEvent(fx, gid, first.token, tool)).toEqual({ accepted: false, reason: 'launch_token_mismatch' });
    expect({ store: readIf(storePath(fx, gid)), state: readIf(statePath(fx, gid)) }).toEqual(afterRestart);

    // The right token but no live PTY child: the pid fence closes.
    await fx.client.call('actor_stop', { group_id: gid, actor_id: 'peer1' });
    const stopped = { store: readIf(storePath(fx, gid)), state: readIf(statePath(fx, gid)) };
    const res = await hookEvent(fx, gid, second.launch_token, { ...tool, session_id: second.session_id });
    expect(res).toEqual({ accepted: false, reason: 'pid_mismatch' });
    expect({ store: readIf(storePath(fx, gid)), state: readIf(statePath(fx, gid)) }).toEqual(stopped);
  });

  it('a corrupt store answers runtime_activity_unavailable (never a partial snapshot) and accepts no event', async () => {
    fx = await hookedRuntimeFixture();
    const gid = await claudeGroup(fx);
    const { token, sessionId } = await startedWithSession(fx, gid);
    mkdirSync(join(storePath(fx, gid), '..'), { recursive: true });
    writeFileSync(storePath(fx, gid), '[{"record": 1}');
    const err = await fx.client.call('runtime_activity_snapshot', { group_id: gid }).then(
      () => undefined,
      (e) => e,
    );
    expect(err).toBeInstanceOf(DaemonCallError);
    expect((err as DaemonCallError).code).toBe('runtime_activity_unavailable');
    const state = readIf(statePath(fx, gid));
    const res = await hookEvent(fx, gid, token, { hook_event_name: 'PreToolUse', session_id: sessionId, tool_use_id: 'toolu_x', tool_name: 'Bash' });
    expect(res).toEqual({ accepted: false, reason: 'runtime_activity_unavailable' });
    expect(readIf(statePath(fx, gid))).toBe(state);
    expect(readFileSync(storePath(fx, gid), 'utf8')).toBe('[{"record": 1}');
  });

  it('an actor that is not a hooked runtime gets no launch record and its events are rejected', async () => {
    fx = await hookedRuntimeFixture();
    const { group_id: gid } = await fx.client.call('group_create', { title: 'plain' });
    const scope = join(fx.home, 'scopes', gid);
    mkdirSync(scope, { recursive: true });
    await fx.client.call('attach', { path: scope, group_id: gid });
    await fx.client.call('actor_add', { group_id: gid, actor_id: 'peer1', runtime: 'custom', command: fakeAgentArgv() });
    await fx.client.call('group_start', { group_id: gid });
    expect(existsSync(launchPath(fx, gid))).toBe(false);
    const res = await hookEvent(fx, gid, 'a'.repeat(32), { hook_event_name: 'SessionStart', session_id: 's1' });
    expect(res).toEqual({ accepted: false, reason: 'no_hooked_launch' });
    expect(existsSync(storePath(fx, gid))).toBe(false);
    expect((await fx.client.call('runtime_activity_snapshot', { group_id: gid })).events).toEqual([]);
  });
});
