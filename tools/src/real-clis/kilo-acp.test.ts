import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { kiloAcpAdapter, loopbackListenPorts, type ManagedSession, type ManagedTurnEvent } from '@cccc/pty-runtime';
import { describeManagedRuntimeContract } from '@cccc/pty-runtime/testing';
import { callTool, hang, reply, startFakeModel, type FakeModel, type ModelStep } from '../fake-model/index.js';
import { describeWithRealClis, kiloEnv, tempAgentHome, writeKiloConfig } from './index.js';
import { realCliTeardown, until } from './test-support.js';

// The real Kilo CLI (pinned @kilocode/cli, an opencode fork) as a managed ACP runtime: `kilo acp`
// on stdio with its basic-auth loopback backend (KILO_SERVER_PASSWORD, user `kilo`), against the
// fake model's chat completions configured in the project's kilo.json.

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

describeWithRealClis('real kilo acp as a managed runtime', (clis) => {
  async function startKilo(model: FakeModel, options: { ask?: boolean; resume?: string; home?: ReturnType<typeof tempAgentHome> } = {}) {
    const agentHome = options.home ?? tempAgentHome('real-kilo-acp-');
    if (!options.home) teardown.cleanups.push(agentHome.dispose);
    writeKiloConfig(agentHome.cwd, model.url, options.ask ? { permission: { bash: 'ask' } } : {});
    const env = kiloEnv(agentHome.home, clis.withPath().PATH!);
    const session = await kiloAcpAdapter.start({
      argv: [clis.bin('kilo')],
      cwd: agentHome.cwd,
      env,
      stateDir: join(agentHome.home, 'state'),
      sessionName: 'cccc-contract',
      ...(options.resume ? { resumeSessionId: options.resume } : {}),
    });
    return { session, agentHome };
  }

  describeManagedRuntimeContract({
    name: 'kilo acp',
    timeoutMs: 120_000,
    start: async () => {
      const model = teardown.model(await startFakeModel({ steps: Array.from({ length: 8 }, () => reply('contract reply')) }));
      const { session } = await startKilo(model);
      return { session, seen: (text) => model.countOccurrences(text) };
    },
  });

  it('the backend is loopback with Kilo basic auth; the TUI argv is `kilo attach` to the exact session, the password in its env only', async () => {
    const model = teardown.model(await startFakeModel({ steps: [reply('hi')] }));
    const { session } = await startKilo(model);
    started.push(session);
    const argv = session.terminalArgv();
    expect(argv[0]).toBe(clis.bin('kilo'));
    expect(argv.slice(1, 2)).toEqual(['attach']);
    const url = argv[2]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(loopbackListenPorts(session.pid)).toContain(Number(new URL(url).port));
    expect(argv).toEqual(expect.arrayContaining(['--session', session.sessionId]));
    const env = session.terminalEnv!();
    expect(env.KILO_SERVER_PASSWORD).toMatch(/^[\w-]{20,}$/);
    expect(env.KILO_SERVER_USERNAME).toBe('kilo');
    expect(argv.join(' ')).not.toContain(env.KILO_SERVER_PASSWORD!);
    expect((await fetch(`${url}/session`)).status).toBe(401);
    const auth = `Basic ${Buffer.from(`kilo:${env.KILO_SERVER_PASSWORD}`).toString('base64')}`;
    const listed = await fetch(`${url}/session`, { headers: { authorization: auth } });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(await listed.json())).toContain(session.sessionId);
  }, 120_000);

  it('a bash call waits on a permission under an opaque token; allowing runs the command once, denying runs nothing', async () => {
    const steps: ModelStep[] = [
      callTool('bash', { command: 'touch approved-marker', description: 'Create a marker file' }),
      reply('Marker created'),
      callTool('bash', { command: 'touch denied-marker', description: 'Create another marker' }),
      reply('Not allowed then'),
    ];
    const model = teardown.model(await startFakeModel({ steps }));
    const { session, agentHome } = await startKilo(model, { ask: true });
    started.push(session);
    const outcome = await session.deliver('please create the marker');
    expect(outcome.outcome).toBe('accepted');
    const pending = await until(() => session.state().permissions[0], 'a pending permission', 60_000);
    expect(pending.request_id).toMatch(/^perm_[0-9a-f]{24}$/);
    expect(pending).toMatchObject({ kind: 'command', turn_id: (outcome as { turnId: string }).turnId, summary: { command: 'touch approved-marker' } });
    expect(session.state()).toMatchObject({ state: 'waiting', working: true });
    session.answerPermission(pending.request_id, true);
    expect(() => session.answerPermission(pending.request_id, true)).toThrow(/no pending request/);
    await until(() => (session.state().state === 'idle' ? true : undefined), 'idle after the turn', 60_000);
    expect(existsSync(join(agentHome.cwd, 'approved-marker'))).toBe(true);
    expect(model.countOccurrences('please create the marker')).toBe(1);

    expect((await session.deliver('try the other marker')).outcome).toBe('accepted');
    const second = await until(() => session.state().permissions[0], 'the second permission', 60_000);
    session.answerPermission(second.request_id, false);
    await until(() => (session.state().state === 'idle' ? true : undefined), 'idle after the denied turn', 60_000);
    expect(existsSync(join(agentHome.cwd, 'denied-marker'))).toBe(false);
  }, 180_000);

  it('cancel ends a stuck turn as interrupted (admitted from the backend event before the model spoke); the session takes the next delivery', async () => {
    const model = teardown.model(await startFakeModel({ steps: [hang('thinking'), reply('after cancel')] }));
    const { session } = await startKilo(model);
    started.push(session);
    const turns: ManagedTurnEvent[] = [];
    session.onTurn((t) => turns.push(t));
    await expect(session.cancel()).rejects.toMatchObject({ code: 'no_active_turn' });
    expect((await session.deliver('a turn that never ends')).outcome).toBe('accepted');
    await until(() => model.countOccurrences('a turn that never ends') === 1 || undefined, 'the model holding the stuck turn', 60_000);
    expect(turns.map((t) => t.phase)).toEqual(['started']);
    await session.cancel();
    const done = await until(() => turns.find((t) => t.phase === 'completed'), 'the interrupted turn', 60_000);
    expect(done).toMatchObject({ status: 'interrupted' });
    await until(() => (session.state().state === 'idle' ? true : undefined), 'idle', 30_000);
    expect((await session.deliver('the next one')).outcome).toBe('accepted');
    await until(() => turns.filter((t) => t.phase === 'completed').length === 2 || undefined, 'the second turn', 60_000);
    expect(model.countOccurrences('the next one')).toBe(1);
  }, 120_000);

  it('a killed agent resumes the same session in a new process; an unknown session fails rather than starting fresh', async () => {
    const model = teardown.model(await startFakeModel({ steps: [reply('first answer'), reply('second answer')] }));
    const first = await startKilo(model);
    teardown.cleanups.push(first.agentHome.dispose);
    const { session } = first;
    expect((await session.deliver('remember 4411')).outcome).toBe('accepted');
    await until(() => (session.state().state === 'idle' ? true : undefined), 'idle', 60_000);
    process.kill(-session.pid, 'SIGKILL');
    await until(() => (session.exited ? true : undefined), 'exit', 10_000);
    const resumed = await startKilo(model, { resume: session.sessionId, home: first.agentHome });
    started.push(resumed.session);
    expect(resumed.session).toMatchObject({ sessionId: session.sessionId, resumed: true });
    expect(resumed.session.pid).not.toBe(session.pid);
    expect(groupGone(session.pid)).toBe(true);
    expect((await resumed.session.deliver('and now 5522')).outcome).toBe('accepted');
    await until(() => (resumed.session.state().state === 'idle' ? true : undefined), 'idle', 60_000);
    const last = JSON.stringify(model.requests.filter((r) => r.main).at(-1)?.body);
    expect(last).toContain('remember 4411');
    expect(model.countOccurrences('and now 5522')).toBe(1);
    await expect(startKilo(model, { resume: 'ses_doesnotexist000000000000', home: first.agentHome })).rejects.toMatchObject({ code: 'resume_failed' });
  }, 180_000);
});
