import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { loopbackListenPorts, opencodeAcpAdapter, type ManagedSession, type ManagedTurnEvent } from '@cccc/pty-runtime';
import { describeManagedRuntimeContract } from '@cccc/pty-runtime/testing';
import { callTool, hang, reply, startFakeModel, type FakeModel, type ModelStep } from '../fake-model/index.js';
import { describeWithRealClis, opencodeEnv, tempAgentHome, writeOpencodeConfig } from './index.js';
import { realCliTeardown, until } from './test-support.js';

// The real opencode (pinned 1.18.33) as a managed ACP runtime (`opencode acp` on stdio, the
// official @agentclientprotocol/sdk client), against the fake model's chat completions.

const teardown = realCliTeardown();
const started: ManagedSession[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop(1_000)));
});

const groupGone = (pid: number) => {
  try {
    process.kill(-pid, 0);
    return false;
  } catch {
    return true;
  }
};

describeWithRealClis('real opencode acp as a managed runtime', (clis) => {
  async function startOpencode(model: FakeModel, options: { ask?: boolean; resume?: string; home?: ReturnType<typeof tempAgentHome> } = {}) {
    const agentHome = options.home ?? tempAgentHome('real-opencode-acp-');
    if (!options.home) teardown.cleanups.push(agentHome.dispose);
    writeOpencodeConfig(agentHome.cwd, model.url, options.ask ? { permission: { bash: 'ask' } } : {});
    const env = opencodeEnv(agentHome.home, clis.withPath().PATH!);
    const session = await opencodeAcpAdapter.start({
      argv: [clis.bin('opencode')],
      cwd: agentHome.cwd,
      env,
      stateDir: join(agentHome.home, 'state'),
      sessionName: 'cccc-contract',
      ...(options.resume ? { resumeSessionId: options.resume } : {}),
    });
    return { session, agentHome };
  }

  describeManagedRuntimeContract({
    name: 'opencode acp',
    timeoutMs: 120_000,
    start: async () => {
      const model = teardown.model(await startFakeModel({ steps: Array.from({ length: 8 }, () => reply('contract reply')) }));
      const { session } = await startOpencode(model);
      return { session, seen: (text) => model.countOccurrences(text) };
    },
  });

  it('the backend is loopback and authenticated; the TUI argv attaches to the exact session with the password in its env only', async () => {
    const model = teardown.model(await startFakeModel({ steps: [reply('hi')] }));
    const { session } = await startOpencode(model);
    started.push(session);
    const argv = session.terminalArgv();
    expect(argv.slice(1, 2)).toEqual(['attach']);
    const url = argv[2]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(loopbackListenPorts(session.pid)).toContain(Number(new URL(url).port));
    expect(argv).toEqual(expect.arrayContaining(['--session', session.sessionId]));
    const env = session.terminalEnv!();
    expect(env.OPENCODE_SERVER_PASSWORD).toMatch(/^[\w-]{20,}$/);
    expect(argv.join(' ')).not.toContain(env.OPENCODE_SERVER_PASSWORD!);
    // Without the password the backend refuses; with it, it answers.
    expect((await fetch(`${url}/session`)).status).toBe(401);
    const auth = `Basic ${Buffer.from(`opencode:${env.OPENCODE_SERVER_PASSWORD}`).toString('base64')}`;
    const listed = await fetch(`${url}/session`, { headers: { authorization: auth } });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(await listed.json())).toContain(session.sessionId);
  }, 120_000);

  it('a bash call waits on a permission under an opaque token; allowing it runs the command once', async () => {
    const steps: ModelStep[] = [callTool('bash', { command: 'touch approved-marker', description: 'Create a marker file' }), reply('Marker created')];
    const model = teardown.model(await startFakeModel({ steps }));
    const { session, agentHome } = await startOpencode(model, { ask: true });
    started.push(session);
    const outcome = await session.deliver('please create the marker');
    expect(outcome.outcome).toBe('accepted');
    const pending = await until(() => session.state().permissions[0], 'a pending permission', 60_000);
    expect(pending.request_id).toMatch(/^perm_[0-9a-f]{24}$/);
    expect(pending).toMatchObject({ kind: 'command', turn_id: (outcome as { turnId: string }).turnId, summary: { command: 'touch approved-marker' } });
    expect(session.state()).toMatchObject({ state: 'waiting', working: true });
    expect(() => session.answerPermission('perm_unknown', true)).toThrow(/no pending request/);
    session.answerPermission(pending.request_id, true);
    expect(() => session.answerPermission(pending.request_id, true)).toThrow(/no pending request/);
    await until(() => (session.state().state === 'idle' ? true : undefined), 'idle after the turn', 60_000);
    expect(existsSync(join(agentHome.cwd, 'approved-marker'))).toBe(true);
    expect(session.state().permissions).toEqual([]);
    expect(model.countOccurrences('please create the marker')).toBe(1);
  }, 120_000);

  it('a denied permission runs nothing', async () => {
    const steps: ModelStep[] = [callTool('bash', { command: 'touch denied-marker', description: 'Create a marker file' }), reply('Not allowed then')];
    const model = teardown.model(await startFakeModel({ steps }));
    const { session, agentHome } = await startOpencode(model, { ask: true });
    started.push(session);
    expect((await session.deliver('try the marker')).outcome).toBe('accepted');
    const pending = await until(() => session.state().permissions[0], 'a pending permission', 60_000);
    session.answerPermission(pending.request_id, false);
    await until(() => (session.state().state === 'idle' ? true : undefined), 'idle after the turn', 60_000);
    expect(existsSync(join(agentHome.cwd, 'denied-marker'))).toBe(false);
  }, 120_000);

  it('cancel ends a stuck turn as interrupted and the session takes the next delivery; with no turn it is no_active_turn', async () => {
    const model = teardown.model(await startFakeModel({ steps: [hang('thinking'), reply('after cancel')] }));
    const { session } = await startOpencode(model);
    started.push(session);
    const turns: ManagedTurnEvent[] = [];
    session.onTurn((t) => turns.push(t));
    await expect(session.cancel()).rejects.toMatchObject({ code: 'no_active_turn' });
    const first = await session.deliver('a turn that never ends');
    expect(first.outcome).toBe('accepted');
    // Admission (the persisted user message) comes before the model call: cancel once the model
    // holds the stuck request, so the next delivery gets the next scripted step.
    await until(() => model.countOccurrences('a turn that never ends') === 1 || undefined, 'the model holding the stuck turn', 60_000);
    await session.cancel();
    const done = await until(() => turns.find((t) => t.phase === 'completed'), 'the interrupted turn', 60_000);
    expect(done).toMatchObject({ status: 'interrupted' });
    await until(() => (session.state().state === 'idle' ? true : undefined), 'idle', 30_000);
    expect((await session.deliver('the next one')).outcome).toBe('accepted');
    await until(() => turns.filter((t) => t.phase === 'completed').length === 2 || undefined, 'the second turn', 60_000);
    expect(model.countOccurrences('the next one')).toBe(1);
  }, 120_000);

  it('a prompt is admitted from the backend event stream (the user message persisted) before the model says anything', async () => {
    const model = teardown.model(await startFakeModel({ steps: [hang()] }));
    const { session } = await startOpencode(model);
    started.push(session);
    const turns: ManagedTurnEvent[] = [];
    session.onTurn((t) => turns.push(t));
    const outcome = await session.deliver('held prompt 55e1');
    expect(outcome.outcome).toBe('accepted');
    await until(() => model.countOccurrences('held prompt 55e1') === 1 || undefined, 'the model holding the request', 60_000);
    // The model holds the request and has said nothing: only the backend's event admitted it.
    expect(turns.map((t) => t.phase)).toEqual(['started']);
    expect(session.state()).toMatchObject({ state: 'working', working: true });
    await session.cancel();
    await until(() => turns.find((t) => t.phase === 'completed'), 'the interrupted turn', 60_000);
    expect(turns.find((t) => t.phase === 'completed')).toMatchObject({ status: 'interrupted' });
  }, 120_000);

  it('a killed agent resumes the same session in a new process; an unknown session fails rather than starting fresh', async () => {
    const model = teardown.model(await startFakeModel({ steps: [reply('first answer'), reply('second answer')] }));
    const first = await startOpencode(model);
    teardown.cleanups.push(first.agentHome.dispose);
    const { session } = first;
    expect((await session.deliver('remember 4411')).outcome).toBe('accepted');
    await until(() => (session.state().state === 'idle' ? true : undefined), 'idle', 60_000);
    process.kill(-session.pid, 'SIGKILL');
    await until(() => (session.exited ? true : undefined), 'exit', 10_000);
    const resumed = await startOpencode(model, { resume: session.sessionId, home: first.agentHome });
    started.push(resumed.session);
    expect(resumed.session).toMatchObject({ sessionId: session.sessionId, resumed: true });
    expect(resumed.session.pid).not.toBe(session.pid);
    expect(groupGone(session.pid)).toBe(true);
    expect((await resumed.session.deliver('and now 5522')).outcome).toBe('accepted');
    await until(() => (resumed.session.state().state === 'idle' ? true : undefined), 'idle', 60_000);
    // The history came along: the model's second request carries the first prompt too.
    const last = JSON.stringify(model.requests.filter((r) => r.main).at(-1)?.body);
    expect(last).toContain('remember 4411');
    expect(model.countOccurrences('and now 5522')).toBe(1);
    await expect(startOpencode(model, { resume: 'ses_doesnotexist000000000000', home: first.agentHome })).rejects.toMatchObject({ code: 'resume_failed' });
  }, 180_000);
});
