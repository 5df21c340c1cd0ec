import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { callTool, reply, startFakeModel } from '../fake-model/index.js';
import { actorProbe, type DaemonGroup } from './daemon-actor.js';
import { copilotEnv, describeWithRealClis } from './index.js';
import { daemonUp, groupAlive, ledgerOf, runDaemon } from './daemon-child.js';
import { realCliTeardown, until } from './test-support.js';

// A Copilot actor in §8.4 `runtime_mode: "acp"` on the real GitHub Copilot CLI: `copilot --acp`
// as one pure headless ACP session (no TUI), running offline against the fake model (BYOK
// variables, no GitHub sign-in). The CCCC MCP server goes in process-scoped through
// --additional-mcp-config; Copilot stores no empty session, so only an attempted one is loaded.

const teardown = realCliTeardown();

describeWithRealClis('real copilot as a headless ACP daemon actor (runtime_mode acp)', (clis) => {
  it('delivers once with the cccc MCP tools, a permission through headless_control, fresh when never prompted, kill -9 then the same session loaded', async () => {
    const marker = 'touch copilot-approved-marker';
    const model = teardown.model(
      await startFakeModel({ steps: [reply('Copilot reply one'), callTool('bash', { command: marker, description: 'Create a marker file' }), reply('Marker created'), reply('Copilot after restart')] }),
    );
    const home = teardown.home(mkdtempSync(join(tmpdir(), 'cccc-copilot-')));
    teardown.cleanups.push(() => rmSync(home, { recursive: true, force: true, maxRetries: 3 }));
    const daemon = runDaemon(teardown, home);
    const client = await daemonUp(home);
    const { group_id } = await client.call('group_create', { title: 'copilot acp' });
    const scope = join(home, 'scope');
    mkdirSync(scope, { recursive: true });
    await client.call('attach', { path: scope, group_id });
    const agentHome = join(home, 'agent');
    mkdirSync(agentHome, { recursive: true });
    const env = copilotEnv(model.url, agentHome, clis.withPath().PATH!);
    // Without --allow-all the permissions are a person's decision.
    await client.call('actor_add', { group_id, actor_id: 'cop', runtime: 'copilot', runtime_mode: 'acp', command: ['copilot'], env });
    await client.call('group_start', { group_id });
    const group = { home, client, groupId: group_id, scope } as DaemonGroup;
    const probe = actorProbe(group, 'cop', () => `model: ${model.requests.map((r) => `${r.path} ${r.main}`).join(', ')}`);
    const status = async (c = client) => (await c.call('headless_status', { group_id, actor_id: 'cop' })).state as Record<string, unknown>;
    await until(async () => {
      const a = await probe.actor();
      return a?.running && a.runner_effective === 'headless' ? a : undefined;
    }, 'the headless actor running', 90_000, probe.diagnose);
    expect(await probe.actor()).toMatchObject({ effective_runtime_mode: 'acp', runtime_state_source: 'managed_session', state_source: 'managed_session' });
    const first = await status();
    expect(first).toMatchObject({ runtime: 'copilot', runner_effective: 'headless', status: 'idle' });
    // The agent is `copilot --acp` with the actor's cccc MCP server in its argv only.
    const agentPid = Number(first.pid);
    const argv = readFileSync(`/proc/${agentPid}/cmdline`, 'utf8').split('\0');
    expect(argv).toContain('--acp');
    expect(argv).toContain('--additional-mcp-config');
    expect(existsSync(join(agentHome, '.copilot', 'mcp-config.json'))).toBe(false);

    // Never prompted: Copilot keeps no empty session, so a restart starts a fresh one.
    await client.call('actor_restart', { group_id, actor_id: 'cop' });
    const fresh = await until(async () => {
      const s = await status();
      return s?.status === 'idle' && s.session_id !== first.session_id ? s : undefined;
    }, 'a fresh session after the restart', 60_000, probe.diagnose);
    const sessionId = String(fresh.session_id);

    const text = 'copilot headless delivery 2f7a';
    const { event } = await client.call('send', { group_id, text, to: ['cop'], message_mode: 'send' });
    await until(async () => (await probe.status(event.id))?.delivery_state === 'accepted', 'the delivery accepted', 60_000, probe.diagnose);
    await until(async () => (await status())?.status === 'idle' && model.countOccurrences(text) === 1, 'idle after the turn', 60_000, probe.diagnose);
    expect(model.countOccurrences(text)).toBe(1);
    const tools = (model.requests.filter((r) => r.main).at(-1)?.body as { tools?: Array<{ function?: { name?: string } }> }).tools ?? [];
    expect(tools.map((t) => t.function?.name ?? '').filter((n) => n.startsWith('cccc')).length).toBeGreaterThan(0);
    const ledger = ledgerOf(home, group_id);
    expect(ledger.filter((e) => e.kind === 'runtime.delivery' && e.data.source_event_id === event.id).map((e) => [e.data.state, e.data.transport])).toEqual([
      ['claimed', 'headless'],
      ['accepted', 'headless'],
    ]);
    const receipt = JSON.parse(readFileSync(join(home, 'groups', group_id, 'state', 'runners', 'managed', 'cop.json'), 'utf8')) as Record<string, unknown>;
    expect(receipt).toMatchObject({ runtime: 'copilot:acp', session_id: sessionId, prompt_attempted: true });

    // A shell call waits under an opaque token and is allowed once through headless_control.
    await client.call('send', { group_id, text: 'please create the copilot marker', to: ['cop'], message_mode: 'send' });
    const control = await until(async () => {
      const s = (await client.call('headless_control_state', { group_id, actor_id: 'cop' })).state;
      return s && s.permissions.length > 0 ? s : undefined;
    }, 'a pending permission', 60_000, probe.diagnose);
    expect(control).toMatchObject({ runtime: 'copilot', runtime_mode: 'acp', runner: 'headless', working: true });
    expect(control.permissions[0]).toMatchObject({ kind: 'command', summary: { command: marker } });
    const request_id = control.permissions[0]!.request_id;
    expect(request_id).toMatch(/^perm_[0-9a-f]{24}$/);
    expect(existsSync(join(scope, 'copilot-approved-marker'))).toBe(false);
    const answer = () => client.request({ v: 1, op: 'headless_control', args: { group_id, actor_id: 'cop', by: 'user', generation: control.generation, action: 'permission', request_id, allow: true } });
    expect((await answer()).ok).toBe(true);
    expect((await answer()).error?.code).toBe('request_not_found');
    await until(() => existsSync(join(scope, 'copilot-approved-marker')), 'the allowed command ran', 60_000, probe.diagnose);
    await until(async () => ((await status())?.status === 'idle' ? true : undefined), 'idle after the permission turn', 60_000, probe.diagnose);

    // kill -9 of the daemon: the next one retires the orphaned agent and loads the same session.
    const record = JSON.parse(readFileSync(join(home, 'groups', group_id, 'state', 'runners', 'pty', 'cop.headless_acp.json'), 'utf8')) as { pid: number };
    daemon.kill('SIGKILL');
    await until(() => daemon.exitCode !== null || daemon.signalCode !== null, 'the daemon to die', 10_000);
    expect(groupAlive(record.pid)).toBe(true);
    runDaemon(teardown, home);
    const client2 = await daemonUp(home);
    await until(() => !groupAlive(record.pid), 'the orphaned agent (its whole group) retired', 30_000);
    const resumed = await until(async () => {
      const s = (await client2.request({ v: 1, op: 'headless_status', args: { group_id, actor_id: 'cop' } })).result?.state as Record<string, unknown> | undefined;
      return s?.status === 'idle' ? s : undefined;
    }, 'the actor running again', 90_000);
    expect(resumed.session_id).toBe(sessionId);
    expect(resumed.pid).not.toBe(record.pid);
    const second = 'after restart copilot 6a0b';
    await client2.call('send', { group_id, text: second, to: ['cop'], message_mode: 'send' });
    await until(() => model.countOccurrences(second) === 1, 'the loaded session takes a turn', 60_000);
    // The loaded session carries the earlier turns as history.
    expect(JSON.stringify(model.requests.filter((r) => r.main).at(-1)?.body)).toContain(text);
  }, 300_000);
});
