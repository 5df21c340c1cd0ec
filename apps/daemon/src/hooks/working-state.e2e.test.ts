import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { actorHookKey } from '@cccc/hook-fence';
import { opCatalog } from '@cccc/ipc-protocol';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import { claudeGroup as claudeGroupOf, hookedRuntimeFixture } from '../../test-support/claude-fixture.js';
import { events, runtimeFixture, screenOf, waitFor } from '../../test-support/daemon-fixture.js';

// Working state with provenance, the send gate and delivery confirmation against a real daemon:
// a fake agent installed as `claude` gets the injected hooks and runs the built `cccc hook
// claude-state` for its own lifecycle; states the fake agent does not produce by itself (a
// permission prompt) are driven through runtime_hook_event with realistic Claude payloads.

type Fx = Awaited<ReturnType<typeof runtimeFixture>>;
const TICK = { CCCC_WORKING_STATE_TICK_MS: '200' };


const claudeGroup = (fx: Fx, env?: Record<string, string>) => claudeGroupOf(fx, { title: 'working state', env });

const statePath = (fx: Fx, gid: string) => join(fx.home, 'daemon', 'claude-hook-state', `${actorHookKey(gid, 'peer1')}.json`);
const launchPath = (fx: Fx, gid: string) => join(fx.home, 'daemon', 'runtime-hook-launch', `${actorHookKey(gid, 'peer1')}.json`);
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

async function startedWithSession(fx: Fx, gid: string): Promise<{ token: string; sessionId: string }> {
  await fx.client.call('group_start', { group_id: gid });
  const sessionId = await waitFor(() => (existsSync(statePath(fx, gid)) ? readJson(statePath(fx, gid)) : null)?.session_id, 15_000, 'SessionStart');
  return { token: readJson(launchPath(fx, gid)).launch_token, sessionId };
}

async function peer1(fx: Fx, gid: string) {
  const { actors } = await fx.client.call('actor_list', { group_id: gid });
  opCatalog.actor_list.result.parse({ actors });
  return actors.find((a) => a.id === 'peer1')!;
}

/** What `cccc hook claude-state` forwards of a Claude payload: identities and labels only. */
const FORWARDED = ['hook_event_name', 'session_id', 'turn_id', 'prompt_id', 'tool_use_id', 'tool_name', 'notification_type', 'agent_id'];

function hook(fx: Fx, gid: string, s: { token: string; sessionId: string }, payload: Record<string, unknown>) {
  const full: Record<string, unknown> = { session_id: s.sessionId, transcript_path: '/tmp/t.jsonl', cwd: '/tmp', ...payload };
  return fx.client.call('runtime_hook_event', {
    group_id: gid,
    actor_id: 'peer1',
    runtime: 'claude',
    launch_token: s.token,
    payload: Object.fromEntries(Object.entries(full).filter(([k]) => FORWARDED.includes(k))) as never,
  });
}

const activityStates = (fx: Fx, gid: string) =>
  events(fx, gid)
    .filter((e) => e.kind === 'actor.activity')
    .map((e) => (e.data['actors'] as Array<Record<string, unknown>>).find((a) => a['id'] === 'peer1')?.['effective_working_state']);

describe('working state with provenance (real daemon, real hooks)', () => {
  let fx: Fx | undefined;
  afterEach(async () => {
    await fx?.[Symbol.asyncDispose]();
    fx = undefined;
  }, 90_000);

  it('actor_list follows the Claude hooks with the state-model fields; actor.activity only on effective changes', async () => {
    fx = await hookedRuntimeFixture(TICK);
    const gid = await claudeGroup(fx);
    expect(await peer1(fx, gid)).toMatchObject({
      effective_working_state: 'stopped',
      input_state: 'offline',
      cli_alive: false,
      state_source: 'process',
      turn_phase: 'unknown_evidence',
    });
    const s = await startedWithSession(fx, gid);
    // SessionStart came through the real `cccc hook claude-state` path.
    await waitFor(async () => (await peer1(fx!, gid)).state_source === 'hook', 10_000, 'hook state');
    expect(await peer1(fx, gid)).toMatchObject({
      running: true,
      effective_working_state: 'idle',
      effective_working_reason: 'claude_hook_SessionStart',
      busy: false,
      input_state: 'ready',
      turn_phase: 'unknown_evidence',
      cli_alive: true,
    });
    // Before SessionStart the state came from the labelled idle-time fallback; from here on, hooks.
    await waitFor(() => activityStates(fx!, gid).at(-1) === 'idle', 5_000, 'actor.activity idle');
    const base = activityStates(fx, gid).length;
    const since = () => activityStates(fx!, gid).slice(base);

    const steps: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ hook_event_name: 'UserPromptSubmit', prompt: 'x' }, { effective_working_state: 'working', busy: true, input_state: 'ready', turn_phase: 'user_prompt_pending' }],
      [{ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: 'toolu_1', tool_input: {} }, { effective_working_state: 'working', turn_phase: 'tool_open' }],
      [{ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_use_id: 'toolu_1', tool_input: {}, tool_response: {} }, { effective_working_state: 'working', turn_phase: 'tool_result_pending_reply' }],
      [{ hook_event_name: 'Notification', notification_type: 'permission_prompt', message: 'needs you' }, { effective_working_state: 'waiting', busy: false, input_state: 'waiting_user' }],
      [{ hook_event_name: 'Stop', stop_hook_active: false }, { effective_working_state: 'idle', input_state: 'ready', turn_phase: 'turn_closed' }],
    ];
    for (const [payload, expected] of steps) {
      expect(await hook(fx, gid, s, payload)).toEqual({ accepted: true });
      expect(await peer1(fx, gid)).toMatchObject({ ...expected, state_source: 'hook', cli_alive: true });
    }
    const stamp = (await peer1(fx, gid)).effective_working_updated_at;
    expect(Date.parse(stamp)).not.toBeNaN();
    await waitFor(() => since().join() === 'working,waiting,idle', 5_000, 'activity sequence');
    // Ticks with no change append nothing; the updated_at stamp stays where the change was.
    await new Promise((r) => setTimeout(r, 700));
    expect(since()).toEqual(['working', 'waiting', 'idle']);
    expect((await peer1(fx, gid)).effective_working_updated_at).toBe(stamp);
    const last = events(fx, gid).filter((e) => e.kind === 'actor.activity').at(-1)!;
    expect((last.data['actors'] as unknown[])[0]).toMatchObject({ id: 'peer1', running: true, runner_effective: 'pty', state_source: 'hook', effective_working_reason: 'claude_hook_Stop' });

    await hook(fx, gid, s, { hook_event_name: 'SessionEnd', reason: 'exit' });
    expect(await peer1(fx, gid)).toMatchObject({ effective_working_state: 'stopped', input_state: 'offline', cli_alive: true, state_source: 'hook' });

    await fx.client.call('actor_stop', { group_id: gid, actor_id: 'peer1' });
    expect(await peer1(fx, gid)).toMatchObject({ effective_working_state: 'stopped', input_state: 'offline', cli_alive: false, state_source: 'process', running: false });
  }, 90_000);

  it('fails closed when the launch identity disagrees with the live session (no hook evidence, no waiting_user)', async () => {
    fx = await hookedRuntimeFixture(TICK);
    const gid = await claudeGroup(fx);
    const s = await startedWithSession(fx, gid);
    await hook(fx, gid, s, { hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: {} });
    expect(await peer1(fx, gid)).toMatchObject({ state_source: 'hook', input_state: 'waiting_user' });
    // A launch record naming another process (an older launch, a corrupt identity) is no identity.
    const record = readJson(launchPath(fx, gid));
    writeFileSync(launchPath(fx, gid), JSON.stringify({ ...record, pid: record.pid + 100_000 }));
    const w = await peer1(fx, gid);
    expect(w.state_source).not.toBe('hook');
    expect(w).toMatchObject({ input_state: 'unknown', turn_phase: 'unknown_evidence', cli_alive: true });
    expect(w.effective_working_reason).toMatch(/^hook_unavailable\//);
    writeFileSync(launchPath(fx, gid), '{not json');
    expect((await peer1(fx, gid)).input_state).toBe('unknown');
  }, 90_000);

  it('send gate: PTY delivery holds while the runtime waits on a permission prompt and proceeds when it clears', async () => {
    fx = await hookedRuntimeFixture(TICK);
    const gid = await claudeGroup(fx);
    const s = await startedWithSession(fx, gid);
    await hook(fx, gid, s, { hook_event_name: 'UserPromptSubmit', prompt: 'work' });
    await hook(fx, gid, s, { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: 'toolu_perm', tool_input: {} });
    await hook(fx, gid, s, { hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: {} });
    expect((await peer1(fx, gid)).input_state).toBe('waiting_user');

    const { event } = await fx.client.call('send', { group_id: gid, text: 'GATED-MESSAGE', to: ['peer1'], message_mode: 'send' });
    const delivered = () => events(fx!, gid).filter((e) => e.kind === 'runtime.delivery' && e.data['source_event_id'] === event.id);
    // Let the worker run several held passes (each re-check is one tick apart).
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 250));
      await fx.services.delivery.idle(gid, 'peer1');
    }
    expect(delivered()).toEqual([]);
    expect(await screenOf(fx, gid, 'peer1')).not.toContain('GATED-MESSAGE');

    // The user answered: the tool runs, the wait clears, the held message goes.
    await hook(fx, gid, s, { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_use_id: 'toolu_perm', tool_input: {}, tool_response: {} });
    await waitFor(() => delivered().some((e) => e.data['state'] === 'accepted'), 20_000, 'accepted after the wait cleared');
    await waitFor(async () => (await screenOf(fx!, gid, 'peer1')).includes('GATED-MESSAGE'), 10_000, 'message on screen');
  }, 90_000);

  it('send gate: a lone ESC typed at the terminal (a rejected prompt, which fires no hook) clears the wait; the held message goes', async () => {
    fx = await hookedRuntimeFixture(TICK);
    const gid = await claudeGroup(fx);
    const s = await startedWithSession(fx, gid);
    await hook(fx, gid, s, { hook_event_name: 'UserPromptSubmit', prompt: 'work' });
    await hook(fx, gid, s, { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: 'toolu_esc', tool_input: {} });
    await hook(fx, gid, s, { hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: {} });
    const { event } = await fx.client.call('send', { group_id: gid, text: 'HELD-UNTIL-ESC', to: ['peer1'], message_mode: 'send' });
    const delivered = () => events(fx!, gid).filter((e) => e.kind === 'runtime.delivery' && e.data['source_event_id'] === event.id);
    await using attachment = await fx.client.openTermAttach({ group_id: gid, actor_id: 'peer1', mode: 'control' });
    // An arrow key (an escape sequence, not a lone ESC) is no interrupt: still held.
    attachment.socket.write('\x1b[A');
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 250));
      await fx.services.delivery.idle(gid, 'peer1');
    }
    expect(delivered()).toEqual([]);
    expect(await peer1(fx, gid)).toMatchObject({ input_state: 'waiting_user' });

    attachment.socket.write('\x1b');
    // The interrupt is read before anything is typed (the preamble and the held message then turn
    // the agent to work again, sooner now that the preamble gap ends at the preamble's prompt hook).
    await waitFor(() => (readJson(statePath(fx!, gid)).event === 'Interrupt' ? true : undefined), 10_000, 'the interrupt read');
    expect(readJson(statePath(fx, gid))).toMatchObject({ status: 'idle', interrupted: true, event: 'Interrupt', operation_id: null });
    const { events: activity } = await fx.client.call('runtime_activity_snapshot', { group_id: gid });
    expect(activity.find((r) => r.operation_id === 'toolu_esc')).toMatchObject({ status: 'completed', event_type: 'Interrupt' });
    await waitFor(() => delivered().some((e) => e.data['state'] === 'accepted'), 20_000, 'accepted after the interrupt');
    await waitFor(async () => (await screenOf(fx!, gid, 'peer1')).includes('HELD-UNTIL-ESC'), 10_000, 'message on screen');
  }, 90_000);

  it('delivery confirmation: the runtime\'s UserPromptSubmit after an accepted PTY delivery confirms it (ledger_statuses)', async () => {
    fx = await hookedRuntimeFixture(TICK);
    const gid = await claudeGroup(fx);
    await startedWithSession(fx, gid);
    const { event } = await fx.client.call('send', { group_id: gid, text: 'please confirm', to: ['peer1'], message_mode: 'send' });
    const confirmation = await waitFor(
      () => events(fx!, gid).find((e) => e.kind === 'x.cccc.delivery_confirmation' && e.data['source_event_id'] === event.id),
      30_000,
      'delivery confirmation',
    );
    const accepted = events(fx, gid).find((e) => e.kind === 'runtime.delivery' && e.data['source_event_id'] === event.id && e.data['state'] === 'accepted')!;
    expect(confirmation.by).toBe('system');
    expect(confirmation.data).toMatchObject({
      actor_id: 'peer1',
      source_event_id: event.id,
      delivery_id: accepted.data['delivery_id'],
      state: 'confirmed',
      evidence: 'claude_hook_UserPromptSubmit',
    });
    expect(confirmation.data['latency_ms']).toEqual(expect.any(Number));
    // The built `cccc hook` says when it started: the agent's own part of the latency, apart.
    expect(confirmation.data['prompt_hook_ms']).toEqual(expect.any(Number));
    expect(confirmation.data['prompt_hook_ms'] as number).toBeLessThanOrEqual(confirmation.data['latency_ms'] as number);
    // Exactly one record per delivery: the preamble's own prompt hook did not stand in for it.
    expect(events(fx, gid).filter((e) => e.kind === 'x.cccc.delivery_confirmation')).toHaveLength(1);
    // The JSONL line can be read before its append is acknowledged: ask the op until it is.
    const st = await waitFor(async () => {
      const r = await fx!.client.call('ledger_statuses', { group_id: gid, event_ids: [event.id] });
      return r.statuses[event.id]?.['peer1']?.delivery_confirmation ? r : null;
    }, 10_000, 'ledger_statuses confirmation');
    opCatalog.ledger_statuses.result.parse(st);
    expect(st.statuses[event.id]!['peer1']).toMatchObject({ delivery_state: 'accepted', delivery_confirmation: 'confirmed' });
  }, 90_000);

  it('delivery confirmation: no UserPromptSubmit within the window records it unconfirmed, without resubmitting', async () => {
    fx = await hookedRuntimeFixture({ ...TICK, CCCC_DELIVERY_CONFIRM_MS: '1500' });
    // The agent "thinks" longer than the window before its prompt hook fires.
    const gid = await claudeGroup(fx, { FAKE_AGENT_THINKING_MS: '5000' });
    await startedWithSession(fx, gid);
    const { event } = await fx.client.call('send', { group_id: gid, text: 'slow one', to: ['peer1'], message_mode: 'send' });
    const confirmation = await waitFor(
      () => events(fx!, gid).find((e) => e.kind === 'x.cccc.delivery_confirmation' && e.data['source_event_id'] === event.id),
      30_000,
      'unconfirmed record',
    );
    expect(confirmation.data).toMatchObject({ actor_id: 'peer1', state: 'unconfirmed', latency_ms: null });
    const st = await waitFor(async () => {
      const r = await fx!.client.call('ledger_statuses', { group_id: gid, event_ids: [event.id] });
      return r.statuses[event.id]?.['peer1']?.delivery_confirmation ? r : null;
    }, 10_000, 'ledger_statuses confirmation');
    expect(st.statuses[event.id]!['peer1']).toMatchObject({ delivery_state: 'accepted', delivery_confirmation: 'unconfirmed' });
    // The late prompt hook changes nothing, and the message was typed exactly once.
    await waitFor(() => readJson(statePath(fx!, gid)).turn_generation >= 2, 30_000, 'late prompt hooks');
    expect(events(fx, gid).filter((e) => e.kind === 'x.cccc.delivery_confirmation')).toHaveLength(1);
    expect(events(fx, gid).filter((e) => e.kind === 'runtime.delivery' && e.data['source_event_id'] === event.id).map((e) => e.data['state'])).toEqual(['claimed', 'accepted']);
  }, 90_000);

  it('an unhooked runtime gets no confirmation: ledger_statuses says null', async () => {
    fx = await hookedRuntimeFixture({ ...TICK, CCCC_DELIVERY_CONFIRM_MS: '500' });
    const { group_id: gid } = await fx.client.call('group_create', { title: 'plain' });
    const scope = join(fx.home, 'scopes', gid);
    mkdirSync(scope, { recursive: true });
    await fx.client.call('attach', { path: scope, group_id: gid });
    await fx.client.call('actor_add', { group_id: gid, actor_id: 'peer1', runtime: 'custom', command: fakeAgentArgv() });
    await fx.client.call('group_start', { group_id: gid });
    const { event } = await fx.client.call('send', { group_id: gid, text: 'plain', to: ['peer1'], message_mode: 'send' });
    const st = await waitFor(async () => {
      const r = await fx!.client.call('ledger_statuses', { group_id: gid, event_ids: [event.id] });
      return r.statuses[event.id]?.['peer1']?.delivery_state === 'accepted' ? r : null;
    }, 20_000, 'accepted');
    // Past the window a hooked runtime would have had its record by now.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(st.statuses[event.id]!['peer1']).toMatchObject({ delivery_state: 'accepted', delivery_confirmation: null });
    expect(events(fx, gid).filter((e) => e.kind === 'x.cccc.delivery_confirmation')).toEqual([]);
    const unhooked = await peer1(fx, gid);
    expect(unhooked.state_source).toMatch(/^(idle|terminal)$/);
    expect(unhooked.effective_working_reason).not.toMatch(/^hook_/);
    // A previously running actor that stops is reported once as stopped.
    await fx.client.call('actor_stop', { group_id: gid, actor_id: 'peer1' });
    await waitFor(() => activityStates(fx!, gid).at(-1) === 'stopped', 5_000, 'actor.activity stopped');
    const stopped = events(fx, gid).filter((e) => e.kind === 'actor.activity').at(-1)!;
    expect((stopped.data['actors'] as unknown[])[0]).toMatchObject({ id: 'peer1', running: false, state_source: 'process', input_state: 'offline' });
  }, 90_000);
});
