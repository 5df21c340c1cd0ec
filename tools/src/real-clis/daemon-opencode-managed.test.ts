import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { callTool, hang, reply, startFakeModel, thinkThenReply } from '../fake-model/index.js';
import { actorProbe, type DaemonGroup } from './daemon-actor.js';
import { describeWithRealClis, opencodeEnv, writeOpencodeConfig } from './index.js';
import { daemonUp, groupAlive, ledgerOf, runDaemon } from './daemon-child.js';
import { realCliTeardown, until } from './test-support.js';

// An opencode actor (issue 24): one daemon-owned `opencode acp` session over stdio with its
// authenticated loopback backend, the native TUI attached with `opencode attach` to that exact
// session in the actor's PTY, deliveries as `session/prompt`, permissions and cancel through
// headless_control, and a daemon kill -9 whose orphaned agent the next daemon retires before
// resuming the same session.

const teardown = realCliTeardown();

describeWithRealClis('real opencode as a managed daemon actor (ACP)', (clis) => {
  async function opencodeGroup(modelUrl: string, config: Record<string, unknown> = {}) {
    const home = teardown.home(mkdtempSync(join(tmpdir(), 'cccc-opencode-')));
    teardown.cleanups.push(() => rmSync(home, { recursive: true, force: true, maxRetries: 3 }));
    const daemon = runDaemon(teardown, home);
    const client = await daemonUp(home);
    const { group_id } = await client.call('group_create', { title: 'managed opencode' });
    const scope = join(home, 'scope');
    mkdirSync(scope, { recursive: true });
    writeOpencodeConfig(scope, modelUrl, config);
    await client.call('attach', { path: scope, group_id });
    const agentHome = join(home, 'agent');
    mkdirSync(agentHome, { recursive: true });
    const env = { ...opencodeEnv(agentHome, clis.withPath().PATH!), TERM: 'xterm-256color' };
    return { home, daemon, client, group_id, scope, env, group: { home, client, groupId: group_id, scope } as DaemonGroup };
  }

  it('a delivery is one ACP prompt (model sees it once, reply in the attached TUI); kill -9 then restart resumes the same session with no orphan', async () => {
    const model = teardown.model(await startFakeModel({ steps: [thinkThenReply(3_000, 'Opencode reply one'), reply('Opencode reply two')] }));
    const g = await opencodeGroup(model.url);
    // The catalog's command (`opencode --auto`) runs managed unchanged.
    await g.client.call('actor_add', { group_id: g.group_id, actor_id: 'peer1', runtime: 'opencode', env: g.env });
    await g.client.call('group_start', { group_id: g.group_id });
    const probe = actorProbe(g.group, 'peer1', () => `model: ${model.requests.map((r) => `${r.path} ${r.main}`).join(', ')}`);
    await until(async () => {
      const a = await probe.actor();
      return a?.running && a.runner_effective === 'opencode_acp' ? a : undefined;
    }, 'the managed actor running', 90_000, probe.diagnose);
    const status = (await g.client.call('headless_status', { group_id: g.group_id, actor_id: 'peer1' })).state;
    expect(status).toMatchObject({ runtime: 'opencode', runner_effective: 'opencode_acp', status: 'idle' });
    const sessionId = String(status.session_id);
    expect(sessionId).toMatch(/^ses_\w+$/);
    // The PTY runs `opencode attach <loopback url> --session <id>`; the password is in its env, not argv.
    const tuiPid = JSON.parse(readFileSync(join(g.home, 'groups', g.group_id, 'state', 'runners', 'pty', 'peer1.json'), 'utf8')).pid as number;
    const tuiArgv = await until(() => {
      const a = readFileSync(`/proc/${tuiPid}/cmdline`, 'utf8').split('\0');
      return a.includes('attach') ? a : undefined;
    }, 'the TUI exec', 10_000);
    expect(tuiArgv).toEqual(expect.arrayContaining(['attach', '--session', sessionId]));
    expect(tuiArgv.find((a) => a.startsWith('http://'))).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(readFileSync(`/proc/${tuiPid}/environ`, 'utf8')).toContain('OPENCODE_SERVER_PASSWORD=');

    const text = 'managed opencode delivery 3e1f';
    const { event } = await g.client.call('send', { group_id: g.group_id, text, to: ['peer1'], message_mode: 'send' });
    await until(async () => (await probe.actor())?.effective_working_state === 'working', 'working from the session', 60_000, probe.diagnose);
    // The state comes from the ACP session's updates (not an app-server, not the screen).
    expect(await probe.actor()).toMatchObject({ state_source: 'managed_session', runtime_state_source: 'managed_session' });
    await until(async () => (await probe.status(event.id))?.delivery_state === 'accepted', 'the delivery accepted', 60_000, probe.diagnose);
    await until(async () => (await probe.actor())?.effective_working_state === 'idle', 'idle after the turn', 60_000, probe.diagnose);
    expect(model.countOccurrences(text)).toBe(1);
    // The actor's own CCCC MCP server came with the session (opencode lists its tools as cccc_<tool>).
    const tools = (model.requests.filter((r) => r.main).at(-1)?.body as { tools?: Array<{ function?: { name?: string } }> }).tools ?? [];
    expect(tools.map((t) => t.function?.name ?? '').filter((n) => n.startsWith('cccc_')).length).toBeGreaterThan(0);
    // The attached TUI shows the same session's reply (attach to the exact session verified).
    await until(async () => (await probe.screen()).includes('Opencode reply one'), 'the reply in the attached TUI', 60_000, probe.diagnose);
    const ledger = ledgerOf(g.home, g.group_id);
    expect(ledger.filter((e) => e.kind === 'runtime.delivery' && e.data.source_event_id === event.id).map((e) => [e.data.state, e.data.transport])).toEqual([
      ['claimed', 'opencode_acp'],
      ['accepted', 'opencode_acp'],
    ]);
    expect(ledger.filter((e) => e.kind === 'headless.turn.completed').map((e) => [e.data.transport, e.data.status])).toContainEqual(['opencode_acp', 'completed']);
    // actor.activity names the surface too (working/idle from the ACP session).
    const activity = ledger.filter((e) => e.kind === 'actor.activity').flatMap((e) => e.data.actors as Array<Record<string, unknown>>).filter((a) => a.id === 'peer1' && a.running);
    expect(activity.length).toBeGreaterThan(0);
    expect(new Set(activity.map((a) => a.runner_effective))).toEqual(new Set(['opencode_acp']));
    expect(new Set(activity.map((a) => a.state_source))).toEqual(new Set(['managed_session']));

    // kill -9 of the daemon: the agent lives on as an orphan until the next daemon starts.
    const record = JSON.parse(readFileSync(join(g.home, 'groups', g.group_id, 'state', 'runners', 'pty', 'peer1.opencode_acp.json'), 'utf8')) as { pid: number };
    g.daemon.kill('SIGKILL');
    await until(() => g.daemon.exitCode !== null || g.daemon.signalCode !== null, 'the daemon to die', 10_000);
    expect(groupAlive(record.pid)).toBe(true);
    runDaemon(teardown, g.home);
    const client = await daemonUp(g.home);
    await until(() => !groupAlive(record.pid), 'the orphaned agent (its whole group) retired', 30_000);
    await until(() => !groupAlive(tuiPid), 'the orphaned TUI retired', 30_000);
    const probe2 = actorProbe({ ...g.group, client }, 'peer1');
    await until(async () => (await probe2.actor())?.runner_effective === 'opencode_acp', 'the managed actor back', 90_000, probe2.diagnose);
    const resumed = (await client.call('headless_status', { group_id: g.group_id, actor_id: 'peer1' })).state;
    expect(resumed.session_id).toBe(sessionId);
    expect(resumed.pid).not.toBe(record.pid);
    const second = 'after restart opencode 9d2c';
    await client.call('send', { group_id: g.group_id, text: second, to: ['peer1'], message_mode: 'send' });
    await until(() => model.countOccurrences(second) === 1, 'the resumed session takes a turn', 60_000, probe2.diagnose);
    // The resumed session carries the earlier turn as history.
    expect(JSON.stringify(model.requests.filter((r) => r.main).at(-1)?.body)).toContain(text);
    // daemon stop (teardown) retires agent and TUI: checked here so nothing is left behind.
    const record2 = JSON.parse(readFileSync(join(g.home, 'groups', g.group_id, 'state', 'runners', 'pty', 'peer1.opencode_acp.json'), 'utf8')) as { pid: number };
    const tui2 = JSON.parse(readFileSync(join(g.home, 'groups', g.group_id, 'state', 'runners', 'pty', 'peer1.json'), 'utf8')) as { pid: number };
    await teardown.cccc(['daemon', 'stop']);
    await until(() => !groupAlive(record2.pid) && !groupAlive(tui2.pid), 'agent and TUI retired by daemon stop', 20_000);
  }, 300_000);

  it('a permission waits under an opaque token and is answered through headless_control; cancel interrupts a stuck turn', async () => {
    const bash = callTool('bash', { command: 'touch approved-marker', description: 'Create a marker file' });
    const model = teardown.model(await startFakeModel({ steps: [bash, reply('Marker created'), hang('thinking'), reply('after cancel')] }));
    const g = await opencodeGroup(model.url, { permission: { bash: 'ask' } });
    // Without --auto, permissions are a person's decision.
    await g.client.call('actor_add', { group_id: g.group_id, actor_id: 'peer1', runtime: 'opencode', command: ['opencode'], env: g.env });
    await g.client.call('group_start', { group_id: g.group_id });
    const probe = actorProbe(g.group, 'peer1');
    await until(async () => (await probe.actor())?.runner_effective === 'opencode_acp', 'the managed actor', 90_000, probe.diagnose);
    const control = (args: Record<string, unknown>) => g.client.request({ v: 1, op: 'headless_control', args: { group_id: g.group_id, actor_id: 'peer1', ...args } });
    const idleState = (await g.client.call('headless_control_state', { group_id: g.group_id, actor_id: 'peer1' })).state!;
    expect((await control({ by: 'user', generation: idleState.generation, action: 'cancel' })).error?.code).toBe('no_active_turn');

    await g.client.call('send', { group_id: g.group_id, text: 'please create the marker', to: ['peer1'], message_mode: 'send' });
    const state = await until(async () => {
      const s = (await g.client.call('headless_control_state', { group_id: g.group_id, actor_id: 'peer1' })).state;
      return s && s.permissions.length > 0 ? s : undefined;
    }, 'a pending permission', 90_000, probe.diagnose);
    expect(state).toMatchObject({ runtime: 'opencode', runner: 'opencode_acp', running: true, working: true });
    expect(state.permissions[0]).toMatchObject({ kind: 'command', summary: { command: 'touch approved-marker' } });
    const request_id = state.permissions[0]!.request_id;
    expect(request_id).toMatch(/^perm_[0-9a-f]{24}$/);
    await until(async () => (await probe.actor())?.effective_working_state === 'waiting', 'waiting from the session', 20_000, probe.diagnose);
    expect((await control({ by: 'peer1', generation: state.generation, action: 'permission', request_id, allow: true })).error?.code).toBe('permission_denied');
    expect((await control({ by: 'user', generation: 'stale', action: 'permission', request_id, allow: true })).error?.code).toBe('stale_generation');
    expect((await control({ by: 'user', generation: state.generation, action: 'permission', request_id: 'perm_nope', allow: true })).error?.code).toBe('request_not_found');
    expect(existsSync(join(g.scope, 'approved-marker'))).toBe(false);
    expect((await control({ by: 'user', generation: state.generation, action: 'permission', request_id, allow: true })).ok).toBe(true);
    // At most one operation: the same token is settled now.
    expect((await control({ by: 'user', generation: state.generation, action: 'permission', request_id, allow: true })).error?.code).toBe('request_not_found');
    await until(() => existsSync(join(g.scope, 'approved-marker')), 'the allowed command ran', 60_000, probe.diagnose);
    await until(async () => (await probe.actor())?.effective_working_state === 'idle', 'idle after the turn', 60_000, probe.diagnose);
    expect(model.countOccurrences('please create the marker')).toBe(1);

    await g.client.call('send', { group_id: g.group_id, text: 'a turn that never ends', to: ['peer1'], message_mode: 'send' });
    await until(async () => (await probe.actor())?.effective_working_state === 'working', 'working on the stuck turn', 60_000, probe.diagnose);
    await until(() => model.countOccurrences('a turn that never ends') === 1, 'the model holding the stuck turn', 60_000, probe.diagnose);
    expect((await control({ by: 'user', generation: state.generation, action: 'cancel' })).ok).toBe(true);
    await until(() => ledgerOf(g.home, g.group_id).some((e) => e.kind === 'headless.turn.completed' && e.data.status === 'interrupted'), 'the interrupted turn recorded', 60_000, probe.diagnose);
    await until(async () => (await probe.actor())?.effective_working_state === 'idle', 'idle after cancel', 60_000, probe.diagnose);
    // The session takes the next delivery.
    await g.client.call('send', { group_id: g.group_id, text: 'after the cancel 71aa', to: ['peer1'], message_mode: 'send' });
    await until(() => model.countOccurrences('after the cancel 71aa') === 1, 'the next turn', 60_000, probe.diagnose);
  }, 300_000);
});
