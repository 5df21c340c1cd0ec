import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { callTool, reply, startFakeModel, thinkThenReply } from '../fake-model/index.js';
import { actorProbe, type DaemonGroup } from './daemon-actor.js';
import { describeWithRealClis, kiloEnv, writeKiloConfig } from './index.js';
import { daemonUp, groupAlive, ledgerOf, runDaemon } from './daemon-child.js';
import { realCliTeardown, until } from './test-support.js';

// A Kilo actor (issue 24) on the real Kilo CLI: one daemon-owned `kilo acp` session with its
// authenticated loopback backend, the native TUI attached with `kilo attach` to that exact
// session, deliveries as `session/prompt`, permissions through headless_control, a daemon kill -9
// whose orphan the next daemon retires before resuming the same session, and a receipt that only
// resumes while Kilo's storage identity (KILO_DB, home and config roots) is unchanged.

const teardown = realCliTeardown();

describeWithRealClis('real kilo as a managed daemon actor (ACP)', (clis) => {
  async function kiloGroup(modelUrl: string, config: Record<string, unknown> = {}) {
    const home = teardown.home(mkdtempSync(join(tmpdir(), 'cccc-kilo-')));
    teardown.cleanups.push(() => rmSync(home, { recursive: true, force: true, maxRetries: 3 }));
    const daemon = runDaemon(teardown, home);
    const client = await daemonUp(home);
    const { group_id } = await client.call('group_create', { title: 'managed kilo' });
    const scope = join(home, 'scope');
    mkdirSync(scope, { recursive: true });
    writeKiloConfig(scope, modelUrl, config);
    await client.call('attach', { path: scope, group_id });
    const agentHome = join(home, 'agent');
    mkdirSync(agentHome, { recursive: true });
    const env = { ...kiloEnv(agentHome, clis.withPath().PATH!), TERM: 'xterm-256color' };
    return { home, daemon, client, group_id, scope, env, agentHome, group: { home, client, groupId: group_id, scope } as DaemonGroup };
  }
  const runnerRecord = (home: string, groupId: string, name: string) => JSON.parse(readFileSync(join(home, 'groups', groupId, 'state', 'runners', 'pty', name), 'utf8')) as { pid: number };

  it('a delivery is one ACP prompt (seen once, reply in the attached TUI); kill -9 resumes the same session with no orphan; another KILO_DB starts fresh', async () => {
    const model = teardown.model(await startFakeModel({ steps: [thinkThenReply(3_000, 'Kilo reply one'), reply('Kilo reply two'), reply('Kilo reply three')] }));
    const g = await kiloGroup(model.url);
    // The catalog's command (`kilo`) runs managed unchanged.
    await g.client.call('actor_add', { group_id: g.group_id, actor_id: 'peer1', runtime: 'kilo', env: g.env });
    await g.client.call('group_start', { group_id: g.group_id });
    const probe = actorProbe(g.group, 'peer1', () => `model: ${model.requests.map((r) => `${r.path} ${r.main}`).join(', ')}`);
    await until(async () => {
      const a = await probe.actor();
      return a?.running && a.runner_effective === 'kilo_acp' ? a : undefined;
    }, 'the managed actor running', 90_000, probe.diagnose);
    const status = (await g.client.call('headless_status', { group_id: g.group_id, actor_id: 'peer1' })).state;
    expect(status).toMatchObject({ runtime: 'kilo', runner_effective: 'kilo_acp', status: 'idle' });
    const sessionId = String(status.session_id);
    expect(sessionId).toMatch(/^ses_\w+$/);
    const tuiPid = runnerRecord(g.home, g.group_id, 'peer1.json').pid;
    const tuiArgv = await until(() => {
      const a = readFileSync(`/proc/${tuiPid}/cmdline`, 'utf8').split('\0');
      return a.includes('attach') ? a : undefined;
    }, 'the TUI exec', 10_000);
    expect(tuiArgv).toEqual(expect.arrayContaining(['attach', '--session', sessionId]));
    expect(tuiArgv.find((a) => a.startsWith('http://'))).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(readFileSync(`/proc/${tuiPid}/environ`, 'utf8')).toContain('KILO_SERVER_PASSWORD=');

    const text = 'managed kilo delivery 7c2e';
    const { event } = await g.client.call('send', { group_id: g.group_id, text, to: ['peer1'], message_mode: 'send' });
    await until(async () => (await probe.actor())?.effective_working_state === 'working', 'working from the session', 60_000, probe.diagnose);
    expect(await probe.actor()).toMatchObject({ state_source: 'managed_session', runtime_state_source: 'managed_session' });
    await until(async () => (await probe.status(event.id))?.delivery_state === 'accepted', 'the delivery accepted', 60_000, probe.diagnose);
    await until(async () => (await probe.actor())?.effective_working_state === 'idle', 'idle after the turn', 60_000, probe.diagnose);
    expect(model.countOccurrences(text)).toBe(1);
    // The actor's own CCCC MCP server came with the session (Kilo lists its tools as cccc_<tool>).
    const tools = (model.requests.filter((r) => r.main).at(-1)?.body as { tools?: Array<{ function?: { name?: string } }> }).tools ?? [];
    expect(tools.map((t) => t.function?.name ?? '').filter((n) => n.startsWith('cccc_')).length).toBeGreaterThan(0);
    await until(async () => (await probe.screen()).includes('Kilo reply one'), 'the reply in the attached TUI', 60_000, probe.diagnose);
    const ledger = ledgerOf(g.home, g.group_id);
    expect(ledger.filter((e) => e.kind === 'runtime.delivery' && e.data.source_event_id === event.id).map((e) => [e.data.state, e.data.transport])).toEqual([
      ['claimed', 'kilo_acp'],
      ['accepted', 'kilo_acp'],
    ]);
    expect(ledger.filter((e) => e.kind === 'headless.turn.completed').map((e) => [e.data.transport, e.data.status])).toContainEqual(['kilo_acp', 'completed']);

    // kill -9 of the daemon: the agent lives on as an orphan until the next daemon starts.
    const record = runnerRecord(g.home, g.group_id, 'peer1.kilo_acp.json');
    g.daemon.kill('SIGKILL');
    await until(() => g.daemon.exitCode !== null || g.daemon.signalCode !== null, 'the daemon to die', 10_000);
    expect(groupAlive(record.pid)).toBe(true);
    runDaemon(teardown, g.home);
    const client = await daemonUp(g.home);
    await until(() => !groupAlive(record.pid), 'the orphaned agent (its whole group) retired', 30_000);
    await until(() => !groupAlive(tuiPid), 'the orphaned TUI retired', 30_000);
    const probe2 = actorProbe({ ...g.group, client }, 'peer1');
    await until(async () => (await probe2.actor())?.runner_effective === 'kilo_acp', 'the managed actor back', 90_000, probe2.diagnose);
    const resumed = (await client.call('headless_status', { group_id: g.group_id, actor_id: 'peer1' })).state;
    expect(resumed.session_id).toBe(sessionId);
    expect(resumed.pid).not.toBe(record.pid);
    const second = 'after restart kilo 4b1d';
    await client.call('send', { group_id: g.group_id, text: second, to: ['peer1'], message_mode: 'send' });
    await until(() => model.countOccurrences(second) === 1, 'the resumed session takes a turn', 60_000, probe2.diagnose);
    expect(JSON.stringify(model.requests.filter((r) => r.main).at(-1)?.body)).toContain(text);
    await until(async () => (await probe2.actor())?.effective_working_state === 'idle', 'idle after the resumed turn', 60_000, probe2.diagnose);

    // Another KILO_DB is another storage identity: the receipt does not resume there.
    const otherDb = join(g.agentHome, 'other', 'kilo.db');
    mkdirSync(join(g.agentHome, 'other'), { recursive: true });
    await client.call('actor_update', { group_id: g.group_id, actor_id: 'peer1', patch: { env: { ...g.env, KILO_DB: otherDb } } });
    await client.call('actor_restart', { group_id: g.group_id, actor_id: 'peer1' });
    const fresh = await until(async () => {
      const s = (await client.call('headless_status', { group_id: g.group_id, actor_id: 'peer1' })).state;
      return s?.session_id && s.session_id !== sessionId && s.status === 'idle' ? s : undefined;
    }, 'a fresh session on the other database', 90_000, probe2.diagnose);
    expect(String(fresh.session_id)).toMatch(/^ses_\w+$/);
    await until(() => existsSync(otherDb), 'Kilo using the other database', 30_000);

    // daemon stop (teardown) retires agent and TUI: checked here so nothing is left behind.
    const record2 = runnerRecord(g.home, g.group_id, 'peer1.kilo_acp.json');
    const tui2 = runnerRecord(g.home, g.group_id, 'peer1.json');
    await teardown.cccc(['daemon', 'stop']);
    await until(() => !groupAlive(record2.pid) && !groupAlive(tui2.pid), 'agent and TUI retired by daemon stop', 20_000);
  }, 360_000);

  it('a permission waits under an opaque token and is answered through headless_control', async () => {
    const bash = callTool('bash', { command: 'touch approved-marker', description: 'Create a marker file' });
    const model = teardown.model(await startFakeModel({ steps: [bash, reply('Marker created')] }));
    const g = await kiloGroup(model.url, { permission: { bash: 'ask' } });
    await g.client.call('actor_add', { group_id: g.group_id, actor_id: 'peer1', runtime: 'kilo', command: ['kilo'], env: g.env });
    await g.client.call('group_start', { group_id: g.group_id });
    const probe = actorProbe(g.group, 'peer1');
    await until(async () => (await probe.actor())?.runner_effective === 'kilo_acp', 'the managed actor', 90_000, probe.diagnose);
    const control = (args: Record<string, unknown>) => g.client.request({ v: 1, op: 'headless_control', args: { group_id: g.group_id, actor_id: 'peer1', ...args } });

    await g.client.call('send', { group_id: g.group_id, text: 'please create the marker', to: ['peer1'], message_mode: 'send' });
    const state = await until(async () => {
      const s = (await g.client.call('headless_control_state', { group_id: g.group_id, actor_id: 'peer1' })).state;
      return s && s.permissions.length > 0 ? s : undefined;
    }, 'a pending permission', 90_000, probe.diagnose);
    expect(state).toMatchObject({ runtime: 'kilo', runner: 'kilo_acp', running: true, working: true });
    expect(state.permissions[0]).toMatchObject({ kind: 'command', summary: { command: 'touch approved-marker' } });
    const request_id = state.permissions[0]!.request_id;
    expect(request_id).toMatch(/^perm_[0-9a-f]{24}$/);
    await until(async () => (await probe.actor())?.effective_working_state === 'waiting', 'waiting from the session', 20_000, probe.diagnose);
    expect((await control({ by: 'user', generation: 'stale', action: 'permission', request_id, allow: true })).error?.code).toBe('stale_generation');
    expect(existsSync(join(g.scope, 'approved-marker'))).toBe(false);
    expect((await control({ by: 'user', generation: state.generation, action: 'permission', request_id, allow: true })).ok).toBe(true);
    expect((await control({ by: 'user', generation: state.generation, action: 'permission', request_id, allow: true })).error?.code).toBe('request_not_found');
    await until(() => existsSync(join(g.scope, 'approved-marker')), 'the allowed command ran', 60_000, probe.diagnose);
    await until(async () => (await probe.actor())?.effective_working_state === 'idle', 'idle after the turn', 60_000, probe.diagnose);
    expect(model.countOccurrences('please create the marker')).toBe(1);
  }, 240_000);
});
