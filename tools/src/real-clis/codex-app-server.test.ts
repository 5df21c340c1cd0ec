import { appendFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { codexAppServerAdapter, type ManagedSession } from '@cccc/pty-runtime';
import { describeManagedRuntimeContract } from '@cccc/pty-runtime/testing';
import { callNamespacedTool, callTool, hang, reply, startFakeModel, type FakeModel } from '../fake-model/index.js';
import { codexEnv, describeWithRealClis, tempAgentHome, writeCodexConfig } from './index.js';
import { realCliTeardown, until } from './test-support.js';

// The real codex app-server (pinned 0.169.0) as a managed runtime, against the fake model: the
// adapter contract, and an approval answered through the protocol.

/** A stdio MCP server whose one tool asks the person through an elicitation. */
const ELICIT_MCP_SERVER = fileURLToPath(new URL('../../real-clis/elicit-mcp-server.mjs', import.meta.url));

const teardown = realCliTeardown();
/** Sessions a test started itself: stopped (and awaited) after it, pass or fail. */
const started: ManagedSession[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop(1_000)));
});

describeWithRealClis('real codex app-server as a managed runtime', (clis) => {
  async function startCodex(model: FakeModel, command: string[], onCwd: (cwd: string) => void = () => {}, configure: (codexHome: string) => void = () => {}): Promise<ManagedSession> {
    const { home, cwd, dispose } = tempAgentHome('real-codex-as-');
    teardown.cleanups.push(dispose);
    const env = codexEnv(home, clis.withPath().PATH!);
    writeCodexConfig(env.CODEX_HOME!, model.url);
    configure(env.CODEX_HOME!);
    onCwd(cwd);
    return codexAppServerAdapter.start({ argv: [clis.bin('codex'), ...command], cwd, env, stateDir: join(home, 'state'), sessionName: 'cccc-contract' });
  }

  describeManagedRuntimeContract({
    name: 'codex app-server',
    timeoutMs: 90_000,
    start: async () => {
      const model = teardown.model(await startFakeModel({ steps: Array.from({ length: 8 }, () => reply('contract reply')) }));
      const session = await startCodex(model, ['--dangerously-bypass-approvals-and-sandbox']);
      return { session, seen: (text) => model.countOccurrences(text) };
    },
  });

  it('an escalated command waits on a permission under an opaque token; allowing it runs the command once', async () => {
    const escalated = callTool('exec_command', { cmd: 'touch approved-marker', sandbox_permissions: 'require_escalated', justification: 'Create a marker file' });
    const model = teardown.model(await startFakeModel({ steps: [escalated, reply('Marker created')] }));
    let cwd = '';
    const session = await startCodex(model, ['-a', 'on-request', '-s', 'workspace-write'], (dir) => (cwd = dir));
    started.push(session);
    const outcome = await session.deliver('please create the marker');
    expect(outcome.outcome).toBe('accepted');
    const pending = await until(() => session.state().permissions[0], 'a pending permission', 60_000);
    expect(pending).toMatchObject({ kind: 'command', summary: { command: expect.stringContaining('touch approved-marker') } });
    expect(pending.request_id).toMatch(/^perm_[0-9a-f]{24}$/);
    await until(() => session.state().state === 'waiting', 'the waiting state', 30_000);
    expect(() => session.answerPermission('perm_unknown', true)).toThrow(/no pending request/);
    session.answerPermission(pending.request_id, true);
    expect(() => session.answerPermission(pending.request_id, true)).toThrow(/no pending request/);
    await until(() => session.state().state === 'idle', 'idle after the turn', 60_000);
    expect(existsSync(join(cwd, 'approved-marker'))).toBe(true);
    expect(session.state().permissions).toEqual([]);
    expect(model.countOccurrences('please create the marker')).toBe(1);
    await session.stop();
  }, 120_000);

  it('a request_user_input question waits under an opaque token; a fitting answer reaches the model, an unfitting one changes nothing', async () => {
    const question = callTool('request_user_input', {
      questions: [{ id: 'db', header: 'Database', question: 'Which database should I use?', options: [{ label: 'sqlite (Recommended)', description: 'a file' }, { label: 'postgres', description: 'a server' }] }],
    });
    const model = teardown.model(await startFakeModel({ steps: [question, reply('Using the answer')] }));
    // codex 0.169.0 offers the request_user_input tool outside plan mode only behind this feature.
    const session = await startCodex(model, ['--dangerously-bypass-approvals-and-sandbox', '--enable', 'default_mode_request_user_input']);
    started.push(session);
    expect((await session.deliver('ask me which database')).outcome).toBe('accepted');
    const tools = () => model.requests.filter((r) => r.main).map((r) => JSON.stringify(r.body));
    const pending = await until(() => session.state().permissions[0], 'a pending question', 60_000);
    expect(tools()[0]).toContain('request_user_input');
    expect(pending.request_id).toMatch(/^ask_[0-9a-f]{24}$/);
    expect(pending).toMatchObject({ kind: 'question', turn_id: session.state().active_turn_id, summary: { questions: [{ id: 'db', question: 'Which database should I use?', options: [{ label: 'sqlite (Recommended)' }, { label: 'postgres' }] }] } });
    expect(() => session.answerPermission(pending.request_id, true)).toThrow(/no pending request/);
    // codex marks its questions is_other (a free-text answer besides the options).
    expect(pending.summary).toMatchObject({ questions: [{ is_other: true, is_secret: false }] });
    for (const unfitting of [{ answers: {} }, { answers: { db: ['postgres'], extra: ['x'] } }, { answers: { db: ['sqlite', 'postgres'] } }, { db: 'postgres' }]) {
      expect(() => session.answerInteraction(pending.request_id, unfitting)).toThrow(expect.objectContaining({ code: 'invalid_response' }));
    }
    expect(session.state().permissions.map((p) => p.request_id)).toEqual([pending.request_id]);
    // A free-text answer (allowed: is_other), unique so the model's next request proves it arrived.
    const answer = 'postgres on port 5433 (answer 7f1e)';
    session.answerInteraction(pending.request_id, { answers: { db: [answer] } });
    expect(() => session.answerInteraction(pending.request_id, { answers: { db: [answer] } })).toThrow(/no pending question/);
    await until(() => session.state().state === 'idle' && model.requests.filter((r) => r.main).length >= 2, 'the turn completed with the answer', 60_000);
    const followUp = model.requests.filter((r) => r.main)[1]!.body as { input?: Array<{ type?: string; output?: unknown }> };
    const outputs = (followUp.input ?? []).filter((i) => i.type === 'function_call_output').map((i) => JSON.stringify(i.output));
    expect(outputs.some((o) => o.includes('answer 7f1e'))).toBe(true);
    expect(session.state().permissions).toEqual([]);
  }, 120_000);

  it('a request_permissions call waits as a `permissions` request under an opaque token; allowing it grants that turn what was asked', async () => {
    const ask = callTool('request_permissions', { reason: 'Fetch the release notes', permissions: { network: { enabled: true } } });
    const model = teardown.model(await startFakeModel({ steps: [ask, reply('Got the access')] }));
    // codex 0.169.0 offers the model the request_permissions tool only behind this feature.
    const session = await startCodex(model, ['-a', 'on-request', '-s', 'workspace-write', '--enable', 'request_permissions_tool']);
    started.push(session);
    expect((await session.deliver('ask for network access')).outcome).toBe('accepted');
    const mains = () => model.requests.filter((r) => r.main);
    const pending = await until(() => session.state().permissions[0], 'a pending permissions request', 60_000);
    expect(JSON.stringify(mains()[0]!.body)).toContain('request_permissions');
    expect(pending.request_id).toMatch(/^perm_[0-9a-f]{24}$/);
    expect(pending).toMatchObject({ kind: 'permissions', turn_id: session.state().active_turn_id, summary: { reason: 'Fetch the release notes', network: { enabled: true } } });
    await until(() => session.state().state === 'waiting', 'the waiting state', 30_000);
    expect(() => session.answerInteraction(pending.request_id, { action: 'accept' })).toThrow(/no pending question/);
    session.answerPermission(pending.request_id, true);
    expect(() => session.answerPermission(pending.request_id, true)).toThrow(/no pending request/);
    await until(() => session.state().state === 'idle' && mains().length >= 2, 'the turn completed with the grant', 60_000);
    const followUp = mains()[1]!.body as { input?: Array<{ type?: string; output?: unknown }> };
    const outputs = (followUp.input ?? []).filter((i) => i.type === 'function_call_output').map((i) => JSON.stringify(i.output));
    // codex tells the model what it was granted, and for how long.
    expect(outputs.join('\n')).toMatch(/network[^}]*enabled[^}]*true/);
    expect(outputs.join('\n')).toMatch(/scope[^,}]*turn/);
    expect(session.state().permissions).toEqual([]);
  }, 120_000);

  it('cancel retires a pending permissions request (nothing granted) and interrupts its turn', async () => {
    const ask = callTool('request_permissions', { reason: 'Write outside', permissions: { file_system: { write: ['/tmp/cccc-never'] } } });
    const model = teardown.model(await startFakeModel({ steps: [ask, reply('after cancel')] }));
    const session = await startCodex(model, ['-a', 'on-request', '-s', 'workspace-write', '--enable', 'request_permissions_tool']);
    started.push(session);
    const turns: string[] = [];
    session.onTurn((t) => t.phase === 'completed' && turns.push(t.status ?? ''));
    expect((await session.deliver('ask for write access')).outcome).toBe('accepted');
    const pending = await until(() => session.state().permissions[0], 'a pending permissions request', 60_000);
    expect(pending).toMatchObject({ kind: 'permissions', summary: { file_system: { read: [], write: ['/tmp/cccc-never'] } } });
    await session.cancel();
    expect(session.state().permissions).toEqual([]);
    expect(() => session.answerPermission(pending.request_id, true)).toThrow(/no pending request/);
    await until(() => turns.length > 0 && session.state().state === 'idle', 'the turn ended', 30_000);
    expect(turns).toEqual(['interrupted']);
  }, 120_000);

  it('an MCP server\'s elicitation waits as an `elicitation` interaction; an unfitting answer changes nothing, an accepted form reaches the tool', async () => {
    const model = teardown.model(await startFakeModel({ steps: [callNamespacedTool('mcp__deploy', 'deploy', {}), reply('Deployed')] }));
    // Under approval policy `never` codex declines elicitations itself; a person is asked only when approvals are on.
    const session = await startCodex(model, ['-a', 'on-request', '-s', 'workspace-write'], () => {}, (codexHome) =>
      appendFileSync(join(codexHome, 'config.toml'), `\n[mcp_servers.deploy]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(ELICIT_MCP_SERVER)}]\n`),
    );
    started.push(session);
    expect((await session.deliver('deploy it')).outcome).toBe('accepted');
    const mains = () => model.requests.filter((r) => r.main);
    // codex first asks (as an elicitation of its own) whether the MCP tool may run at all.
    const toolApproval = await until(() => session.state().permissions[0], 'the tool-call approval', 60_000);
    expect(toolApproval.request_id).toMatch(/^ask_[0-9a-f]{24}$/);
    expect(toolApproval).toMatchObject({ kind: 'elicitation', turn_id: session.state().active_turn_id, summary: { server_name: 'deploy', message: expect.stringContaining('run tool "deploy"') } });
    session.answerInteraction(toolApproval.request_id, { action: 'accept', content: {} });
    // Then the tool runs and the server asks its own question.
    const pending = await until(() => session.state().permissions.find((p) => p.request_id !== toolApproval.request_id), 'the server\'s elicitation', 60_000);
    expect(pending.request_id).toMatch(/^ask_[0-9a-f]{24}$/);
    expect(pending).toMatchObject({ kind: 'elicitation', turn_id: session.state().active_turn_id, summary: { server_name: 'deploy', mode: 'form', message: 'Where should I deploy?', requested_schema: { properties: { env: { enum: ['staging', 'prod'] } } } } });
    expect(() => session.answerPermission(pending.request_id, true)).toThrow(/no pending request/);
    for (const unfitting of [{ action: 'accept' }, { action: 'accept', content: { env: 'dev' } }, { action: 'ok' }, { action: 'decline', content: { env: 'prod' } }]) {
      expect(() => session.answerInteraction(pending.request_id, unfitting)).toThrow(expect.objectContaining({ code: 'invalid_response' }));
    }
    expect(session.state().permissions.map((p) => p.request_id)).toEqual([pending.request_id]);
    session.answerInteraction(pending.request_id, { action: 'accept', content: { env: 'staging' } });
    expect(() => session.answerInteraction(pending.request_id, { action: 'cancel' })).toThrow(/no pending question/);
    await until(() => session.state().state === 'idle' && mains().length >= 2, 'the turn completed with the answer', 60_000);
    const followUp = mains()[1]!.body as { input?: Array<{ type?: string; output?: unknown }> };
    const outputs = (followUp.input ?? []).filter((i) => i.type === 'function_call_output').map((i) => JSON.stringify(i.output));
    expect(outputs.join('\n')).toContain('elicitation answered: accept');
    expect(outputs.join('\n')).toContain('staging');
    expect(session.state().permissions).toEqual([]);
  }, 120_000);

  it('cancel interrupts a stuck turn: it completes interrupted and the session is idle again', async () => {
    const model = teardown.model(await startFakeModel({ steps: [hang('thinking forever')] }));
    const session = await startCodex(model, ['--dangerously-bypass-approvals-and-sandbox']);
    started.push(session);
    const completed: string[] = [];
    session.onTurn((t) => t.phase === 'completed' && completed.push(t.status ?? ''));
    await expect(session.cancel()).rejects.toThrow(/no turn is running/);
    expect((await session.deliver('a turn that never ends')).outcome).toBe('accepted');
    await until(() => session.state().state === 'working' && session.state().active_turn_id, 'the turn running', 30_000);
    await until(() => model.countOccurrences('a turn that never ends') === 1, 'the model asked', 30_000);
    await session.cancel();
    await until(() => completed.length > 0, 'the turn to complete', 30_000);
    expect(completed).toEqual(['interrupted']);
    await until(() => session.state().state === 'idle', 'idle after the interrupt', 30_000);
  }, 90_000);

  it('a delivery while a turn runs is admitted too (codex steers it into that turn) and the model sees it once', async () => {
    const model = teardown.model(await startFakeModel({ steps: [reply('first', 3_000), reply('second')] }));
    const session = await startCodex(model, ['--dangerously-bypass-approvals-and-sandbox']);
    started.push(session);
    const completed: string[] = [];
    session.onTurn((t) => t.phase === 'completed' && completed.push(t.turnId));
    const first = await session.deliver('first delivery 1a');
    if (first.outcome !== 'accepted') throw new Error(JSON.stringify(first));
    await until(() => session.state().state === 'working', 'the first turn running', 30_000);
    const second = await session.deliver('second delivery 2b');
    // The runtime owns steer-versus-queue (spec §8.4); codex 0.169 steers into the running turn.
    expect(second).toEqual({ outcome: 'accepted', turnId: first.turnId });
    await until(() => completed.length > 0 && session.state().state === 'idle', 'idle', 60_000);
    expect(model.countOccurrences('first delivery 1a')).toBeGreaterThanOrEqual(1);
    expect(model.countOccurrences('second delivery 2b')).toBe(1);
  }, 90_000);
});
