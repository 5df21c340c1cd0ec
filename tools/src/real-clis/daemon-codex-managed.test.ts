import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebServer } from '@cccc/web';
import { expect, it } from 'vitest';
import { callTool, reply, startFakeModel, thinkThenReply } from '../fake-model/index.js';
import { actorProbe, type DaemonGroup } from './daemon-actor.js';
import { codexEnv, describeWithRealClis, writeCodexConfig } from './index.js';
import { daemonUp, groupAlive, isAlive, runDaemon } from './daemon-child.js';
import { realCliTeardown, until } from './test-support.js';

// A codex actor run managed (runner "headless"): one daemon-owned codex app-server thread, the
// native TUI attached to it in the actor's PTY, deliveries as `turn/start`, working state from
// the app-server's notifications, approvals answered through headless_control, and a daemon
// kill -9 whose orphaned app-server the next daemon retires before resuming the same thread.

const teardown = realCliTeardown();

/** How the daemon's start-up prompt for peer1 (the group's first actor, its foreman) begins. */
const PREAMBLE_MARK = 'You are peer1 (';

/** The text of the last user message a Responses request carries: the turn's own input, not its history. */
function lastUserText(body: unknown): string {
  const input = ((body as { input?: unknown }).input ?? []) as Array<{ type?: string; role?: string; content?: Array<{ type?: string; text?: string }> }>;
  const last = input.filter((i) => i.type === 'message' && i.role === 'user').at(-1);
  return (last?.content ?? []).map((c) => c.text ?? '').join('\n');
}

/** The pid an ownership record under the group's runners/pty names, or undefined when there is none. */
function ownershipPid(home: string, groupId: string, name: string): number | undefined {
  try {
    return (JSON.parse(readFileSync(join(home, 'groups', groupId, 'state', 'runners', 'pty', name), 'utf8')) as { pid: number }).pid;
  } catch {
    return undefined;
  }
}
describeWithRealClis('real codex as a managed daemon actor (app-server)', (clis) => {
  async function managedGroup(daemonEnv: NodeJS.ProcessEnv = {}) {
    const home = teardown.home(mkdtempSync(join(tmpdir(), 'cccc-managed-')));
    teardown.cleanups.push(() => rmSync(home, { recursive: true, force: true, maxRetries: 3 }));
    const daemon = runDaemon(teardown, home, daemonEnv);
    const client = await daemonUp(home);
    const { group_id } = await client.call('group_create', { title: 'managed codex' });
    const scope = join(home, 'scope');
    (await import('node:fs')).mkdirSync(scope, { recursive: true });
    await client.call('attach', { path: scope, group_id });
    const agentHome = join(home, 'agent');
    const env = codexEnv(agentHome, clis.withPath().PATH!);
    return { home, daemon, client, group_id, scope, env, group: { home, client, groupId: group_id, scope } as DaemonGroup };
  }

  it('a delivery runs one app-server turn (model sees it once), working → idle from the app-server; kill -9 then restart resumes the same thread with no orphan', async () => {
    const model = teardown.model(await startFakeModel({ steps: [thinkThenReply(3_000, 'Managed reply one'), reply('Managed reply two')] }));
    // The native escape for the daemon (CCCC_CODEX_MANAGED=0) still runs an actor whose runner is
    // explicitly `headless` managed.
    const g = await managedGroup({ CCCC_CODEX_MANAGED: '0' });
    writeCodexConfig(g.env.CODEX_HOME!, model.url);
    await g.client.call('actor_add', { group_id: g.group_id, actor_id: 'peer1', runtime: 'codex', env: { ...g.env, TERM: 'xterm-256color' } });
    // Per actor: the runner `headless` runs a codex actor managed.
    await g.client.call('actor_update', { group_id: g.group_id, actor_id: 'peer1', patch: { runner: 'headless' } });
    await g.client.call('group_start', { group_id: g.group_id });
    const probe = actorProbe(g.group, 'peer1', () => `model: ${model.requests.map((r) => `${r.path} ${r.main}`).join(', ')}`);
    const actor = await until(async () => {
      const a = await probe.actor();
      return a?.running && a.runner_effective === 'codex_app_server' ? a : undefined;
    }, 'the managed actor running', 60_000, probe.diagnose);
    expect(actor).toMatchObject({ runtime_state_source: 'app_server', state_source: 'app_server', effective_working_state: 'idle' });
    const status = (await g.client.call('headless_status', { group_id: g.group_id, actor_id: 'peer1' })).state;
    const threadId = String(status.session_id);
    expect(threadId).toMatch(/^[0-9a-f-]{36}$/);
    // The native TUI in the actor's PTY is codex itself, attached to that thread over the listener.
    const tuiPid = JSON.parse(readFileSync(join(g.home, 'groups', g.group_id, 'state', 'runners', 'pty', 'peer1.json'), 'utf8')).pid as number;
    const tuiArgv = await until(() => {
      const a = readFileSync(`/proc/${tuiPid}/cmdline`, 'utf8').split('\0');
      return a.includes('resume') ? a : undefined;
    }, 'the TUI exec', 10_000);
    expect(tuiArgv).toEqual(expect.arrayContaining(['resume', threadId, '--remote']));
    await until(async () => /Managed|codex|Codex/i.test(await probe.screen()), 'the attached TUI on screen', 45_000, probe.diagnose);

    const text = 'managed delivery 7c3a';
    const { event } = await g.client.call('send', { group_id: g.group_id, text, to: ['peer1'], message_mode: 'send' });
    await until(async () => (await probe.actor())?.effective_working_state === 'working', 'working from the app-server', 30_000, probe.diagnose);
    await until(async () => (await probe.status(event.id))?.delivery_state === 'accepted', 'the delivery accepted', 30_000, probe.diagnose);
    await until(async () => (await probe.actor())?.effective_working_state === 'idle', 'idle after the turn', 30_000, probe.diagnose);
    expect(model.countOccurrences(text)).toBe(1);
    // The thread's first turn carried the start-up prompt, before the message.
    const firstTurn = lastUserText(model.requests.filter((r) => r.main)[0]!.body);
    expect(firstTurn.indexOf(text)).toBeGreaterThan(firstTurn.indexOf(PREAMBLE_MARK));
    expect(firstTurn.indexOf(PREAMBLE_MARK)).toBeGreaterThanOrEqual(0);
    await until(async () => (await probe.screen()).includes('Managed reply one'), 'the reply in the attached TUI', 30_000, probe.diagnose);
    const ledger = readFileSync(join(g.home, 'groups', g.group_id, 'ledger.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; data: Record<string, unknown> });
    const deliveries = ledger.filter((e) => e.kind === 'runtime.delivery' && e.data.source_event_id === event.id);
    expect(deliveries.map((e) => [e.data.state, e.data.transport])).toEqual([['claimed', 'codex_app_server'], ['accepted', 'codex_app_server']]);
    expect(ledger.filter((e) => e.kind === 'headless.turn.completed').length).toBeGreaterThanOrEqual(1);

    // kill -9 of the daemon: its app-server lives on as an orphan until the next daemon starts.
    const record = JSON.parse(readFileSync(join(g.home, 'groups', g.group_id, 'state', 'runners', 'pty', 'peer1.codex_app_server.json'), 'utf8')) as { pid: number };
    await g.client.call('headless_set_status', { group_id: g.group_id, actor_id: 'peer1', status: 'working', task_id: 'T3' });
    g.daemon.kill('SIGKILL');
    await until(() => g.daemon.exitCode !== null || g.daemon.signalCode !== null, 'the daemon to die', 10_000);
    expect(isAlive(record.pid)).toBe(true);
    runDaemon(teardown, g.home);
    const client = await daemonUp(g.home);
    await until(() => !groupAlive(record.pid), 'the orphaned app-server (its whole group) retired', 20_000);
    const group2 = { ...g.group, client };
    const probe2 = actorProbe(group2, 'peer1');
    await until(async () => (await probe2.actor())?.runner_effective === 'codex_app_server', 'the managed actor back', 60_000, probe2.diagnose);
    const resumed = (await client.call('headless_status', { group_id: g.group_id, actor_id: 'peer1' })).state;
    expect(resumed.session_id).toBe(threadId);
    // The self-reported status is durable: the resumed thread gets it back from disk.
    expect(resumed.self_status).toMatchObject({ status: 'working', task_id: 'T3' });
    expect(resumed.pid).not.toBe(record.pid);
    // The daemon's own start of the actor is announced with the surface it really runs on.
    const restartLedger = readFileSync(join(g.home, 'groups', g.group_id, 'ledger.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; by: string; data: Record<string, unknown> });
    expect(restartLedger.filter((e) => e.kind === 'actor.start' && e.data.reason === 'daemon_start').map((e) => [e.by, e.data.runner, e.data.runner_effective])).toEqual([['system', 'headless', 'codex_app_server']]);
    const second = 'after restart 41bd';
    await client.call('send', { group_id: g.group_id, text: second, to: ['peer1'], message_mode: 'send' });
    await until(() => model.countOccurrences(second) === 1, 'the resumed thread takes a turn', 30_000, probe2.diagnose);
    // The resumed thread carries the earlier turn: the model sees the first text again as history.
    expect(model.requests.at(-1)?.main).toBe(true);
    // One start-up prompt per thread (durable with its receipt): the resumed thread's next turn is the message alone.
    const afterRestart = lastUserText(model.requests.at(-1)!.body);
    expect(afterRestart).toContain(second);
    expect(afterRestart).not.toContain(PREAMBLE_MARK);
    expect(model.countOccurrences(PREAMBLE_MARK)).toBe(1);
  }, 240_000);

  it('an approval waits as a pending permission; headless_control answers it by exact generation', async () => {
    const escalated = callTool('exec_command', { cmd: 'touch approved-marker', sandbox_permissions: 'require_escalated', justification: 'Create a marker file' });
    const model = teardown.model(await startFakeModel({ steps: [escalated, reply('Marker created')] }));
    // The default (spec §8.4): every daemon-launched codex actor runs managed.
    const g = await managedGroup();
    writeCodexConfig(g.env.CODEX_HOME!, model.url);
    await g.client.call('actor_add', {
      group_id: g.group_id,
      actor_id: 'peer1',
      runtime: 'codex',
      command: ['codex', '-a', 'on-request', '-s', 'workspace-write'],
      env: { ...g.env, TERM: 'xterm-256color' },
    });
    await g.client.call('group_start', { group_id: g.group_id });
    const probe = actorProbe(g.group, 'peer1');
    await until(async () => (await probe.actor())?.runner_effective === 'codex_app_server', 'the managed actor', 60_000, probe.diagnose);
    await g.client.call('send', { group_id: g.group_id, text: 'please create the marker', to: ['peer1'], message_mode: 'send' });
    const state = await until(async () => {
      const s = (await g.client.call('headless_control_state', { group_id: g.group_id, actor_id: 'peer1' })).state;
      return s && s.permissions.length > 0 ? s : undefined;
    }, 'a pending permission', 60_000, probe.diagnose);
    expect(state).toMatchObject({ runtime: 'codex', runner: 'codex_app_server', running: true, working: true });
    expect(state.permissions[0]).toMatchObject({ kind: 'command', summary: { command: expect.stringContaining('touch approved-marker') } });
    await until(async () => (await probe.actor())?.effective_working_state === 'waiting', 'waiting from the app-server', 20_000, probe.diagnose);
    const request_id = state.permissions[0]!.request_id;
    const control = (args: Record<string, unknown>) => g.client.request({ v: 1, op: 'headless_control', args: { group_id: g.group_id, actor_id: 'peer1', ...args } });
    expect((await control({ by: 'peer1', generation: state.generation, action: 'permission', request_id, allow: true })).error?.code).toBe('permission_denied');
    expect((await control({ by: 'user', generation: 'stale', action: 'permission', request_id, allow: true })).error?.code).toBe('stale_generation');
    expect((await control({ by: 'user', generation: state.generation, action: 'permission', request_id: 'perm_nope', allow: true })).error?.code).toBe('request_not_found');
    // The person answers from the browser: the Web route reads the same state and posts as `user`.
    await using web = await startWebServer({ home: g.home, port: 0 });
    const url = `${web.url}/api/v1/groups/${g.group_id}/actors/peer1/headless/control`;
    const read = (await (await fetch(url)).json()) as { ok: boolean; result: { state: { generation: string; permissions: Array<{ request_id: string }> } } };
    expect(read.result.state.generation).toBe(state.generation);
    expect(read.result.state.permissions.map((p) => p.request_id)).toEqual([request_id]);
    const post = (body: Record<string, unknown>) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const answered = await post({ generation: state.generation, action: 'permission', request_id, allow: true });
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as { result: { state: { permissions: unknown[] } } }).result.state.permissions).toEqual([]);
    expect((await control({ by: 'user', generation: state.generation, action: 'permission', request_id, allow: true })).error?.code).toBe('request_not_found');
    await until(async () => (await probe.actor())?.effective_working_state === 'idle', 'idle after the approved turn', 60_000, probe.diagnose);
    expect(readFileSync(join(g.scope, 'approved-marker'), 'utf8')).toBe('');
    expect((await control({ by: 'user', generation: state.generation, action: 'cancel' })).error?.code).toBe('no_active_turn');
    expect((await control({ by: 'user', generation: state.generation, action: 'interaction', request_id, response: {} })).error?.code).toBe('request_not_found');
    const self = await g.client.call('headless_set_status', { group_id: g.group_id, actor_id: 'peer1', status: 'working', task_id: 'T7' });
    expect(self.state).toMatchObject({ status: 'idle', self_status: { status: 'working', task_id: 'T7' } });

    // Daemon exit retires the app-server and its TUI (graceful stop: nothing left running).
    const pids = [Number(self.state!.pid), JSON.parse(readFileSync(join(g.home, 'groups', g.group_id, 'state', 'runners', 'pty', 'peer1.json'), 'utf8')).pid as number];
    expect(pids.every(isAlive)).toBe(true);
    await teardown.cccc(['daemon', 'stop']);
    await until(() => pids.every((p) => !groupAlive(p)), 'the app-server and TUI groups gone with the daemon', 15_000);
  }, 180_000);

  it('a request_user_input question is a pending request of kind question; headless_control interaction answers it (Web route) and the model gets the answer', async () => {
    const question = callTool('request_user_input', {
      questions: [{ id: 'db', header: 'Database', question: 'Which database?', options: [{ label: 'sqlite (Recommended)', description: 'a file' }, { label: 'postgres', description: 'a server' }] }],
    });
    const model = teardown.model(await startFakeModel({ steps: [question, reply('Noted')] }));
    const g = await managedGroup();
    writeCodexConfig(g.env.CODEX_HOME!, model.url);
    // codex 0.169.0 offers request_user_input outside plan mode only behind this feature (`--enable` goes to the app-server).
    const command = ['codex', '--dangerously-bypass-approvals-and-sandbox', '--enable', 'default_mode_request_user_input'];
    await g.client.call('actor_add', { group_id: g.group_id, actor_id: 'peer1', runtime: 'codex', command, env: { ...g.env, TERM: 'xterm-256color' } });
    await g.client.call('group_start', { group_id: g.group_id });
    const probe = actorProbe(g.group, 'peer1');
    await until(async () => (await probe.actor())?.runner_effective === 'codex_app_server', 'the managed actor', 60_000, probe.diagnose);
    await g.client.call('send', { group_id: g.group_id, text: 'ask me which database', to: ['peer1'], message_mode: 'send' });
    const state = await until(async () => {
      const s = (await g.client.call('headless_control_state', { group_id: g.group_id, actor_id: 'peer1' })).state;
      return s && s.permissions.length > 0 ? s : undefined;
    }, 'a pending question', 60_000, probe.diagnose);
    const pending = state.permissions[0]!;
    expect(pending).toMatchObject({ kind: 'question', summary: { questions: [{ id: 'db', question: 'Which database?', options: [{ label: 'sqlite (Recommended)' }, { label: 'postgres' }] }] } });
    expect(pending.request_id).toMatch(/^ask_[0-9a-f]{24}$/);
    const control = (args: Record<string, unknown>) => g.client.request({ v: 1, op: 'headless_control', args: { group_id: g.group_id, actor_id: 'peer1', ...args } });
    const base = { by: 'user', generation: state.generation, request_id: pending.request_id };
    // Refusals change nothing: the question stays pending under the same token.
    expect((await control({ ...base, action: 'permission', allow: true })).error?.code).toBe('request_not_found');
    expect((await control({ ...base, action: 'interaction' })).error?.code).toBe('invalid_request');
    expect((await control({ ...base, action: 'interaction', response: { answers: { nope: ['x'] } } })).error).toMatchObject({ code: 'invalid_request', details: { field: 'response' } });
    expect((await control({ ...base, by: 'peer1', action: 'interaction', response: { answers: { db: ['postgres'] } } })).error?.code).toBe('permission_denied');
    expect((await control({ ...base, generation: 'stale', action: 'interaction', response: { answers: { db: ['postgres'] } } })).error?.code).toBe('stale_generation');
    const still = (await g.client.call('headless_control_state', { group_id: g.group_id, actor_id: 'peer1' })).state!;
    expect(still.permissions.map((p) => p.request_id)).toEqual([pending.request_id]);
    // The person answers from the browser.
    await using web = await startWebServer({ home: g.home, port: 0 });
    const url = `${web.url}/api/v1/groups/${g.group_id}/actors/peer1/headless/control`;
    const answer = 'postgres (answer 3c9d)';
    const answered = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ generation: state.generation, action: 'interaction', request_id: pending.request_id, response: { answers: { db: [answer] } } }) });
    expect(answered.status).toBe(200);
    expect((await control({ ...base, action: 'interaction', response: { answers: { db: [answer] } } })).error?.code).toBe('request_not_found');
    await until(async () => (await probe.actor())?.effective_working_state === 'idle' && model.requests.filter((r) => r.main).length >= 2, 'idle after the answered turn', 60_000, probe.diagnose);
    const followUp = model.requests.filter((r) => r.main)[1]!.body as { input?: Array<{ type?: string; output?: unknown }> };
    expect((followUp.input ?? []).some((i) => i.type === 'function_call_output' && JSON.stringify(i.output).includes('answer 3c9d'))).toBe(true);
  }, 180_000);

  it("restart resumes the thread, new_session starts another; the TUI exiting re-opens it against the same session; the app-server dying stops the actor with exactly one actor.stop", async () => {
    const model = teardown.model(await startFakeModel({ steps: [reply('unused')] }));
    const g = await managedGroup();
    writeCodexConfig(g.env.CODEX_HOME!, model.url);
    await g.client.call('actor_add', { group_id: g.group_id, actor_id: 'peer1', runtime: 'codex', env: { ...g.env, TERM: 'xterm-256color' } });
    await g.client.call('group_start', { group_id: g.group_id });
    const probe = actorProbe(g.group, 'peer1');
    await until(async () => (await probe.actor())?.runner_effective === 'codex_app_server', 'the managed actor', 60_000, probe.diagnose);
    // Restart resumes the same thread under a new generation; a new session starts a fresh thread.
    const before = (await g.client.call('headless_control_state', { group_id: g.group_id, actor_id: 'peer1' })).state!;
    const thread0 = (await g.client.call('headless_status', { group_id: g.group_id, actor_id: 'peer1' })).state.session_id;
    const server0 = Number((await g.client.call('headless_status', { group_id: g.group_id, actor_id: 'peer1' })).state.pid);
    await g.client.call('headless_set_status', { group_id: g.group_id, actor_id: 'peer1', status: 'waiting', task_id: 'T9' });
    await g.client.call('actor_restart', { group_id: g.group_id, actor_id: 'peer1' });
    const restarted = (await g.client.call('headless_status', { group_id: g.group_id, actor_id: 'peer1' })).state;
    expect(restarted.self_status).toMatchObject({ status: 'waiting', task_id: 'T9' });
    await until(() => !groupAlive(server0), 'the previous app-server group retired by the restart', 10_000);
    expect(restarted.session_id).toBe(thread0);
    expect(restarted.generation).not.toBe(before.generation);
    await g.client.call('actor_new_session', { group_id: g.group_id, actor_id: 'peer1' });
    const fresh = (await g.client.call('headless_status', { group_id: g.group_id, actor_id: 'peer1' })).state;
    expect(fresh.session_id).not.toBe(thread0);
    // A fresh thread never inherits the earlier thread's self-reported status.
    expect(fresh.self_status).toBeNull();
    const pidOf = (name: string) => ownershipPid(g.home, g.group_id, name);
    const tui = pidOf('peer1.json')!;
    const server = pidOf('peer1.codex_app_server.json')!;
    const { session_id } = (await g.client.call('headless_status', { group_id: g.group_id, actor_id: 'peer1' })).state;
    const stops = () =>
      readFileSync(join(g.home, 'groups', g.group_id, 'ledger.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { kind: string; by: string; data: Record<string, unknown> })
        .filter((e) => e.kind === 'actor.stop' && e.by === 'system');

    process.kill(tui, 'SIGKILL');
    const reopened = await until(() => { const p = pidOf('peer1.json'); return p && p !== tui ? p : undefined; }, 'the TUI re-opened', 30_000, probe.diagnose);
    expect(isAlive(reopened)).toBe(true);
    // Read once the spawned child has exec'd codex (right after fork it still shows the daemon's argv).
    const argv = await until(() => {
      const a = readFileSync(`/proc/${reopened}/cmdline`, 'utf8').split('\0');
      return a.includes('resume') ? a : undefined;
    }, 'the re-opened TUI exec', 10_000);
    expect(argv).toEqual(expect.arrayContaining(['resume', String(session_id), '--remote']));
    expect(await probe.actor()).toMatchObject({ running: true, runner_effective: 'codex_app_server' });
    expect((await g.client.call('headless_status', { group_id: g.group_id, actor_id: 'peer1' })).state).toMatchObject({ session_id, pid: server });
    expect(stops()).toEqual([]);

    process.kill(server, 'SIGKILL');
    await until(async () => (await probe.actor())?.running === false, 'the actor stopped', 30_000, probe.diagnose);
    await until(() => !isAlive(reopened), 'its TUI gone too', 15_000);
    // The native codex server under the killed launcher goes too: nothing of either group stays.
    await until(() => !groupAlive(server) && !groupAlive(reopened), 'the app-server and TUI process groups empty', 15_000);
    await new Promise((r) => setTimeout(r, 1_000));
    const stopped = stops();
    expect(stopped).toHaveLength(1);
    expect(stopped[0]!.data).toMatchObject({ actor_id: 'peer1', runner_effective: 'codex_app_server', reason: 'exited' });
    expect(pidOf('peer1.json')).toBeUndefined();
    expect(pidOf('peer1.codex_app_server.json')).toBeUndefined();
    expect((await g.client.request({ v: 1, op: 'headless_status', args: { group_id: g.group_id, actor_id: 'peer1' } })).error?.code).toBe('session_not_found');
  }, 180_000);
  it('the start check watches the app-server, not the TUI: a TUI dying in the window is re-opened, an app-server dying in it fails the start', async () => {
    const model = teardown.model(await startFakeModel({ steps: [reply('unused')] }));
    // A long window, so the test can kill a process inside it.
    const g = await managedGroup({ CCCC_EARLY_EXIT_WINDOW_MS: '6000', CCCC_STOP_GRACE_MS: '1000' });
    writeCodexConfig(g.env.CODEX_HOME!, model.url);
    await g.client.call('actor_add', { group_id: g.group_id, actor_id: 'peer1', runtime: 'codex', env: { ...g.env, TERM: 'xterm-256color' } });
    const pidOf = (name: string) => ownershipPid(g.home, g.group_id, name);
    const problems = () =>
      readFileSync(join(g.home, 'groups', g.group_id, 'ledger.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { kind: string; data: Record<string, unknown> })
        .filter((e) => e.kind === 'x.cccc.actor_start_problem');
    const probe = actorProbe(g.group, 'peer1');

    // The TUI dies inside the window: not a failed start (the provider lives, the TUI is re-opened).
    const t0 = Date.now();
    const first = g.client.request({ v: 1, op: 'actor_start', args: { group_id: g.group_id, actor_id: 'peer1' } });
    const tui = await until(() => pidOf('peer1.json'), 'the TUI spawned', 30_000);
    process.kill(tui, 'SIGKILL');
    const started = await first;
    expect(Date.now() - t0).toBeGreaterThanOrEqual(5_500); // the answer came after the window
    expect(started.ok).toBe(true);
    expect(started.result).toMatchObject({ running: true });
    expect((started.result as { start_failure?: unknown }).start_failure).toBeUndefined();
    await until(() => { const p = pidOf('peer1.json'); return p && p !== tui ? p : undefined; }, 'the TUI re-opened', 30_000, probe.diagnose);
    const listed = await probe.actor();
    expect(listed).toMatchObject({ running: true, runner_effective: 'codex_app_server' });
    expect(listed?.start_failure).toBeUndefined();
    expect(problems()).toEqual([]);

    // The app-server dies inside the window: the start failed.
    await g.client.call('actor_stop', { group_id: g.group_id, actor_id: 'peer1' });
    const second = g.client.request({ v: 1, op: 'actor_start', args: { group_id: g.group_id, actor_id: 'peer1' } });
    const server = await until(() => pidOf('peer1.codex_app_server.json'), 'the app-server spawned', 30_000);
    await until(() => pidOf('peer1.json'), 'its TUI spawned', 30_000);
    process.kill(server, 'SIGKILL');
    const failed = await second;
    expect(failed.ok).toBe(false);
    expect(failed.error).toMatchObject({
      code: 'runtime_start_failed',
      details: { actor_id: 'peer1', reason: 'exited_early', start_failure: { code: 'exited_early', exit_code: null, signal: 'SIGKILL' } },
    });
    expect(String((failed.error!.details['start_failure'] as { message: string }).message)).toMatch(/^its codex app-server was killed by SIGKILL within 6 s of starting$/);
    await until(async () => (await probe.actor())?.running === false, 'the actor stopped', 30_000, probe.diagnose);
    expect((await probe.actor())?.start_failure).toMatchObject({ code: 'exited_early', signal: 'SIGKILL' });
    expect(problems().map((e) => [e.data.actor_id, e.data.code, e.data.signal, e.data.trigger])).toEqual([['peer1', 'exited_early', 'SIGKILL', 'actor_start']]);
  }, 180_000);
});
