import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_CLI } from '../../test-support/claude-fixture.js';
import { events, FAST_ENV, isAlive, runtimeFixture, startDaemonFixture, waitFor, type DaemonFixture } from '../../test-support/daemon-fixture.js';

// §8.4 `runtime_mode: "acp"` end to end through a real daemon: the scripted ACP agent of
// pty-runtime's tests, installed as an executable named `copilot` (the real Copilot CLI cannot be
// installed here; its ACP behaviour is the spec's, untested against the real binary).

const FAKE_ACP = join(import.meta.dirname, '..', '..', '..', '..', 'libs', 'pty-runtime', 'src', 'managed', 'acp', 'fixtures', 'fake-acp-agent.mjs');

type LogEntry = { pid: number; argv?: string[]; request?: string; params?: Record<string, unknown>; text?: string; permission?: string };

function installFakeAcpAs(binDir: string, name: string): string {
  mkdirSync(binDir, { recursive: true });
  const path = join(binDir, name);
  writeFileSync(path, `#!/bin/sh\nexec '${process.execPath}' '${FAKE_ACP}' "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('headless ACP actor (runtime_mode acp) through the daemon', () => {
  let d: DaemonFixture;
  let state: string;
  let copilot: string;
  const log = (): LogEntry[] =>
    existsSync(join(state, 'log.jsonl'))
      ? readFileSync(join(state, 'log.jsonl'), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as LogEntry)
      : [];
  const requests = (name: string) => log().filter((e) => e.request === name);

  beforeAll(async () => {
    d = await runtimeFixture({}, { cliEntry: BUILT_CLI });
    state = join(d.home, 'fake-acp-state');
    mkdirSync(state, { recursive: true });
    copilot = installFakeAcpAs(join(d.home, 'bin'), 'copilot');
  });
  afterAll(async () => {
    await d?.[Symbol.asyncDispose]();
  });

  it('starts headless, delivers, surfaces a permission, and resumes only an attempted session', async () => {
    const { group_id } = await d.call('group_create', { title: 'acp' });
    await d.call('attach', { path: d.projectDir('acp'), group_id });
    await d.call('actor_add', { group_id, actor_id: 'lead', runtime: 'custom', command: ['cat'] });
    await d.call('actor_add', { group_id, actor_id: 'cop', runtime: 'copilot', runtime_mode: 'acp', command: [copilot], env: { FAKE_ACP_STATE_DIR: state } });
    const listed = async () => (await d.call('actor_list', { group_id })).actors.find((a) => a.id === 'cop')!;
    const status = async () => (await d.call('headless_status', { group_id, actor_id: 'cop' })).state as Record<string, unknown>;

    await d.call('actor_start', { group_id, actor_id: 'cop' });
    expect(await listed()).toMatchObject({ running: true, runner_effective: 'headless', runtime_mode: 'acp', effective_runtime_mode: 'acp', runtime_state_source: 'managed_session' });
    const first = await status();
    expect(first).toMatchObject({ runtime: 'copilot', runner_effective: 'headless', runtime_state_source: 'managed_session', status: 'idle' });

    // Copilot ACP, its CCCC MCP server process-scoped in argv (never in its global config), none per session.
    const [spawn] = log().filter((e) => e.argv);
    expect(spawn!.argv![0]).toBe('--acp');
    const mcpConfig = JSON.parse(spawn!.argv![spawn!.argv!.indexOf('--additional-mcp-config') + 1]!) as { mcpServers: Record<string, { args: string[]; env: Record<string, string> }> };
    expect(Object.values(mcpConfig.mcpServers)[0]).toMatchObject({ args: [BUILT_CLI, 'mcp'], env: { CCCC_GROUP_ID: group_id, CCCC_ACTOR_ID: 'cop' } });
    expect(requests('session/new').at(-1)!.params).toMatchObject({ mcpServers: [] });

    // No native TUI: the terminal ops answer not_pty_actor.
    expect(await d.codeOf('terminal_tail', { group_id, actor_id: 'cop', by: 'user' })).toBe('not_pty_actor');

    // Never prompted: Copilot stores no empty session, so a restart starts a fresh one (no load).
    await d.call('actor_stop', { group_id, actor_id: 'cop' });
    await d.call('actor_start', { group_id, actor_id: 'cop' });
    const fresh = await status();
    expect(fresh.session_id).not.toBe(first.session_id);
    expect(requests('session/load')).toHaveLength(0);

    // A delivery: the attempt is durable in the receipt, the prompt reaches the agent once, accepted.
    const { event } = await d.call('send', { group_id, text: 'hello acp 5c1e', to: ['cop'], message_mode: 'send' });
    await waitFor(() => requests('session/prompt').some((e) => e.text?.includes('hello acp 5c1e')), 20_000, 'the prompt at the agent');
    await waitFor(() => events(d, group_id).some((e) => e.kind === 'runtime.delivery' && e.data.source_event_id === event.id && e.data.state === 'accepted'), 20_000, 'delivery accepted');
    expect(events(d, group_id).filter((e) => e.kind === 'runtime.delivery' && e.data.source_event_id === event.id).map((e) => [e.data.state, e.data.transport])).toEqual([
      ['claimed', 'headless'],
      ['accepted', 'headless'],
    ]);
    const receipt = JSON.parse(readFileSync(join(d.home, 'groups', group_id, 'state', 'runners', 'managed', 'cop.json'), 'utf8')) as Record<string, unknown>;
    expect(receipt).toMatchObject({ runtime: 'copilot:acp', session_id: fresh.session_id, prompt_attempted: true });
    expect(requests('session/prompt').filter((e) => e.text?.includes('hello acp 5c1e'))).toHaveLength(1);

    // A permission waits under an opaque token and is answered once through headless_control.
    await d.call('send', { group_id, text: 'acp-script:permission', to: ['cop'], message_mode: 'send' });
    const control = await waitFor(async () => {
      const s = (await d.call('headless_control_state', { group_id, actor_id: 'cop' })).state;
      return s && s.permissions.length > 0 ? s : undefined;
    }, 20_000, 'a pending permission');
    expect(control).toMatchObject({ runtime: 'copilot', runtime_mode: 'acp', runner: 'headless', working: true });
    expect(control.permissions[0]).toMatchObject({ kind: 'command', summary: { command: 'touch allowed.txt' } });
    const request_id = control.permissions[0]!.request_id;
    const answer = (allow: boolean) => d.client.request({ v: 1, op: 'headless_control', args: { group_id, actor_id: 'cop', by: 'user', generation: control.generation, action: 'permission', request_id, allow } });
    expect((await answer(true)).ok).toBe(true);
    expect((await answer(true)).error?.code).toBe('request_not_found');
    await waitFor(() => log().some((e) => e.permission === 'allowed'), 20_000, 'the allowed operation');
    await waitFor(async () => (await status()).status === 'idle', 20_000, 'idle after the turn');

    // Restart: the attempted session is loaded, same identity.
    await d.call('actor_stop', { group_id, actor_id: 'cop' });
    await d.call('actor_start', { group_id, actor_id: 'cop' });
    expect((await status()).session_id).toBe(fresh.session_id);
    expect(requests('session/load').at(-1)!.params).toMatchObject({ sessionId: fresh.session_id });

    // The provider lost it: the start fails explicitly, never a silent fresh session.
    await d.call('actor_stop', { group_id, actor_id: 'cop' });
    rmSync(join(state, 'sessions', String(fresh.session_id)));
    const news = requests('session/new').length;
    const error = await d.errorOf('actor_start', { group_id, actor_id: 'cop' });
    expect(error.code).toBe('runtime_start_failed');
    expect(error.details).toMatchObject({ actor_id: 'cop', reason: 'resume_failed' });
    expect(requests('session/new')).toHaveLength(news);
    expect((await listed()).running).toBe(false);
    // An explicit new session is the way out.
    await d.call('actor_new_session', { group_id, actor_id: 'cop' });
    expect(await listed()).toMatchObject({ running: true, runner_effective: 'headless' });
    expect((await status()).session_id).not.toBe(fresh.session_id);
    await d.call('actor_stop', { group_id, actor_id: 'cop' });
  }, 120_000);

  it('cursor: ask_question and create_plan wait as interactions even under --yolo, answered through headless_control', async () => {
    const cursorState = join(d.home, 'fake-cursor-state');
    mkdirSync(cursorState, { recursive: true });
    const cursorBin = installFakeAcpAs(join(d.home, 'bin'), 'cursor-agent');
    const cursorLog = (): LogEntry[] =>
      existsSync(join(cursorState, 'log.jsonl'))
        ? readFileSync(join(cursorState, 'log.jsonl'), 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as LogEntry)
        : [];
    const { group_id } = await d.call('group_create', { title: 'cursor acp' });
    await d.call('attach', { path: d.projectDir('cursor-acp'), group_id });
    await d.call('actor_add', { group_id, actor_id: 'lead', runtime: 'custom', command: ['cat'] });
    // --yolo: tool permissions are auto-allowed, but questions and plans stay a person's decision.
    await d.call('actor_add', { group_id, actor_id: 'cur', runtime: 'cursor', runtime_mode: 'acp', command: [cursorBin, '--yolo'], env: { FAKE_ACP_STATE_DIR: cursorState } });
    await d.call('actor_start', { group_id, actor_id: 'cur' });
    const pendingOf = async () => {
      const s = (await d.call('headless_control_state', { group_id, actor_id: 'cur' })).state;
      return s && s.permissions.length > 0 ? s : undefined;
    };
    const control = (generation: string, request_id: string, response: unknown) =>
      d.client.request({ v: 1, op: 'headless_control', args: { group_id, actor_id: 'cur', by: 'user', generation, action: 'interaction', request_id, response } });

    await d.call('send', { group_id, text: 'acp-script:ask', to: ['cur'], message_mode: 'send' });
    const asked = await waitFor(pendingOf, 20_000, 'a pending question');
    expect(asked).toMatchObject({ runtime: 'cursor', runtime_mode: 'acp', runner: 'headless', working: true });
    const question = asked.permissions[0]!;
    expect(question).toMatchObject({ kind: 'question', summary: { title: 'Setup', questions: [{ id: 'lang', options: [{ id: 'ts' }, { id: 'py' }] }, { id: 'extras', allow_multiple: true }] } });
    // An answer that does not fit the questions is refused and changes nothing.
    const bad = await control(asked.generation, question.request_id, { outcome: 'answered', answers: { lang: ['ts', 'py'], extras: ['ci'] } });
    expect(bad.error).toMatchObject({ code: 'invalid_request', details: { field: 'response' } });
    expect((await pendingOf())?.permissions[0]?.request_id).toBe(question.request_id);
    // A permission answer is not an interaction answer.
    expect((await d.client.request({ v: 1, op: 'headless_control', args: { group_id, actor_id: 'cur', by: 'user', generation: asked.generation, action: 'permission', request_id: question.request_id, allow: true } })).error?.code).toBe('request_not_found');
    expect((await control(asked.generation, question.request_id, { outcome: 'answered', answers: { lang: ['py'], extras: ['lint', 'ci'] } })).ok).toBe(true);
    expect((await control(asked.generation, question.request_id, { outcome: 'skipped' })).error?.code).toBe('request_not_found');
    const answered = await waitFor(() => cursorLog().find((e) => (e as { interaction?: string }).interaction === 'cursor/ask_question'), 20_000, 'the answer at the agent');
    expect((answered as { answer?: unknown }).answer).toEqual({
      outcome: { outcome: 'answered', answers: [{ questionId: 'lang', selectedOptionIds: ['py'] }, { questionId: 'extras', selectedOptionIds: ['lint', 'ci'] }] },
    });

    await d.call('send', { group_id, text: 'acp-script:plan', to: ['cur'], message_mode: 'send' });
    const planned = await waitFor(pendingOf, 20_000, 'a pending plan');
    expect(planned.permissions[0]).toMatchObject({ kind: 'plan', summary: { name: 'Refactor', plan: '1. split\n2. test' } });
    expect((await control(planned.generation, planned.permissions[0]!.request_id, { outcome: 'rejected', reason: 'not now' })).ok).toBe(true);
    const decided = await waitFor(() => cursorLog().find((e) => (e as { interaction?: string }).interaction === 'cursor/create_plan'), 20_000, 'the plan decision at the agent');
    expect((decided as { answer?: unknown }).answer).toEqual({ outcome: { outcome: 'rejected', reason: 'not now' } });
    await d.call('actor_stop', { group_id, actor_id: 'cur' });
  }, 60_000);

  it('after kill -9 of the daemon, the next one retires the orphaned agent and loads the same attempted session', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cccc-acp-crash-'));
    const fakeState = join(home, 'fake-acp-state');
    mkdirSync(fakeState, { recursive: true });
    const bin = installFakeAcpAs(join(home, 'bin'), 'copilot');
    const daemon = spawn(process.execPath, [BUILT_CLI, 'daemon', 'run'], { env: { ...process.env, ...FAST_ENV, CCCC_HOME: home }, stdio: 'ignore' });
    try {
      const client = new DaemonClient({ home });
      await waitFor(async () => (await client.request({ v: 1, op: 'ping', args: {} }).catch(() => undefined))?.ok, 15_000, 'daemon up');
      const { group_id } = await client.call('group_create', { title: 'acp crash' });
      const project = join(home, 'project');
      mkdirSync(project);
      await client.call('attach', { path: project, group_id });
      await client.call('actor_add', { group_id, actor_id: 'lead', runtime: 'custom', command: ['cat'] });
      await client.call('actor_add', { group_id, actor_id: 'cop', runtime: 'copilot', runtime_mode: 'acp', command: [bin, '--allow-all'], env: { FAKE_ACP_STATE_DIR: fakeState } });
      await client.call('group_start', { group_id });
      await client.call('send', { group_id, text: 'before the crash 9d3f', to: ['cop'], message_mode: 'send' });
      const prompted = () => readFileSync(join(fakeState, 'log.jsonl'), 'utf8').includes('before the crash 9d3f');
      await waitFor(() => existsSync(join(fakeState, 'log.jsonl')) && prompted(), 20_000, 'the prompt at the agent');
      const before = (await client.call('headless_status', { group_id, actor_id: 'cop' })).state as Record<string, unknown>;
      const record = JSON.parse(readFileSync(join(home, 'groups', group_id, 'state', 'runners', 'pty', 'cop.headless_acp.json'), 'utf8')) as { pid: number };
      expect(record.pid).toBe(before.pid);
      daemon.kill('SIGKILL');
      await waitFor(() => daemon.exitCode !== null || daemon.signalCode !== null, 5_000, 'daemon death');
      expect(isAlive(record.pid)).toBe(true);

      const next = await startDaemonFixture({ home, env: FAST_ENV, cliEntry: BUILT_CLI });
      try {
        await waitFor(() => !isAlive(record.pid), 10_000, 'orphaned agent retired');
        const after = await waitFor(async () => (await next.client.request({ v: 1, op: 'headless_status', args: { group_id, actor_id: 'cop' } })).result?.state as Record<string, unknown> | undefined, 20_000, 'the actor running again');
        expect(after.session_id).toBe(before.session_id);
        expect(after.pid).not.toBe(record.pid);
      } finally {
        await next[Symbol.asyncDispose]();
      }
    } finally {
      if (daemon.exitCode === null && daemon.signalCode === null) daemon.kill('SIGKILL');
      rmSync(home, { recursive: true, force: true });
    }
  }, 90_000);
});
