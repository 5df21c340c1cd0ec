import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ManagedTurnEvent } from '../runtime-adapter.js';
import type { AcpLaunch } from './acp-launch.js';
import { AcpSession } from './acp-session.js';

// AcpSession's delivery outcomes and ordering against a scripted ACP agent (fixtures/); the
// real agent (opencode) runs in tools/src/real-clis/opencode-acp.test.ts.

const FAKE = join(import.meta.dirname, 'fixtures', 'fake-acp-agent.mjs');
const launch: AcpLaunch = { runtime: 'fake', agentArgv: [process.execPath, FAKE], agentEnv: {}, terminal: () => null };
const sessions: AcpSession[] = [];
const dirs: string[] = [];

async function start(resumeSessionId?: string): Promise<AcpSession> {
  return startWith(launch, resumeSessionId);
}

async function startWith(how: AcpLaunch, resumeSessionId?: string): Promise<AcpSession> {
  const cwd = mkdtempSync(join(tmpdir(), 'acp-session-'));
  dirs.push(cwd);
  const session = await AcpSession.start(how, { argv: [], cwd, env: { PATH: process.env.PATH ?? '' }, stateDir: cwd, sessionName: 't', ...(resumeSessionId ? { resumeSessionId } : {}) });
  sessions.push(session);
  return session;
}

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.stop(1_000)));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('AcpSession against a scripted ACP agent', () => {
  it('accepted on the first activity; the turn completes; a prompt refused before any activity is failed with no turn', async () => {
    const s = await start();
    const turns: ManagedTurnEvent[] = [];
    s.onTurn((t) => turns.push(t));
    const ok = await s.deliver('hello');
    expect(ok).toMatchObject({ outcome: 'accepted', turnId: expect.stringMatching(/^turn_[0-9a-f]{24}$/) });
    const refused = await s.deliver('refuse');
    expect(refused).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('refused by the fake agent') });
    expect(turns.map((t) => [t.phase, t.status])).toEqual([
      ['started', undefined],
      ['completed', 'completed'],
    ]);
    expect(s.state()).toMatchObject({ state: 'idle', active_turn_id: null });
  });

  it('an admitted turn whose prompt errors is completed as failed with the error', async () => {
    const s = await start();
    const turns: ManagedTurnEvent[] = [];
    s.onTurn((t) => turns.push(t));
    expect((await s.deliver('fail-after-start')).outcome).toBe('accepted');
    await expect.poll(() => turns.find((t) => t.phase === 'completed')).toMatchObject({ status: 'failed', error: expect.stringContaining('the model failed') });
  });

  it('another session’s updates and session metadata do not admit; the prompt response does', async () => {
    const s = await start();
    const t0 = Date.now();
    const outcome = await s.deliver('foreign 600');
    expect(outcome.outcome).toBe('accepted');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(500);
  });

  it('the agent dying before admitting the prompt makes the delivery ambiguous, queued ones failed, one exit', async () => {
    const s = await start();
    const exits: unknown[] = [];
    s.onExit((e) => exits.push(e));
    const dying = s.deliver('die');
    const queued = s.deliver('hello after');
    expect(await dying).toMatchObject({ outcome: 'ambiguous', reason: 'connection_lost' });
    expect(await queued).toMatchObject({ outcome: 'failed', reason: 'not_running' });
    expect(s.exited).toBe(true);
    expect(exits).toHaveLength(1);
    expect(s.state()).toMatchObject({ state: 'stopped', working: false });
  });

  it('deliveries during a turn wait and are sent in order, one prompt at a time', async () => {
    const s = await start();
    const turns: ManagedTurnEvent[] = [];
    s.onTurn((t) => turns.push(t));
    const [a, b, c] = await Promise.all([s.deliver('slow 300'), s.deliver('one'), s.deliver('two')]);
    const ids = [a, b, c].map((o) => (o.outcome === 'accepted' ? o.turnId : o.outcome));
    expect(new Set(ids).size).toBe(3);
    // Each turn completes before the next starts.
    await expect.poll(() => turns.length).toBe(6);
    expect(turns.map((t) => `${t.phase}:${ids.indexOf(t.turnId)}`).slice(0, 6)).toEqual(['started:0', 'completed:0', 'started:1', 'completed:1', 'started:2', 'completed:2']);
  });

  it('cancel with no turn is no_active_turn; cancel returns queued deliveries to the ledger as failed', async () => {
    const s = await start();
    await expect(s.cancel()).rejects.toMatchObject({ code: 'no_active_turn' });
    const first = s.deliver('slow 2000');
    const queued = s.deliver('next');
    expect((await first).outcome).toBe('accepted');
    await s.cancel();
    expect(await queued).toMatchObject({ outcome: 'failed', reason: 'cancelled' });
  });

  it('resumes a known session (loadSession) and refuses an unknown one with resume_failed', async () => {
    const s = await start('fake-session-1');
    expect(s).toMatchObject({ sessionId: 'fake-session-1', resumed: true });
    await expect(start('nope')).rejects.toMatchObject({ code: 'resume_failed' });
  });

  it('cursor/ask_question waits as a question (never auto-answered); a wrong answer changes nothing, the right one reaches the agent once', async () => {
    const s = await startWith({ ...launch, cursorExtensions: true, autoAllow: true });
    const turns: ManagedTurnEvent[] = [];
    s.onTurn((t) => turns.push(t));
    const outcome = await s.deliver('ask');
    expect(outcome.outcome).toBe('accepted');
    const pending = await expect.poll(() => s.state().permissions[0]).toBeDefined().then(() => s.state().permissions[0]!);
    expect(pending).toMatchObject({ kind: 'question', turn_id: (outcome as { turnId: string }).turnId, summary: { title: 'Setup', questions: [{ id: 'lang' }, { id: 'extras', allow_multiple: true }] } });
    expect(pending.request_id).toMatch(/^ask_[0-9a-f]{24}$/);
    expect(s.state()).toMatchObject({ state: 'waiting', working: true });
    // A question is not a permission, and a half answer is refused while it stays pending.
    expect(() => s.answerPermission(pending.request_id, true)).toThrow(expect.objectContaining({ code: 'request_not_found' }));
    expect(() => s.answerInteraction(pending.request_id, { outcome: 'answered', answers: { lang: ['ts'] } })).toThrow(expect.objectContaining({ code: 'invalid_response' }));
    expect(s.state().permissions).toHaveLength(1);
    s.answerInteraction(pending.request_id, { outcome: 'answered', answers: { lang: ['py'], extras: ['ci'] } });
    expect(() => s.answerInteraction(pending.request_id, { outcome: 'skipped' })).toThrow(expect.objectContaining({ code: 'request_not_found' }));
    await expect.poll(() => turns.find((t) => t.phase === 'completed')).toMatchObject({ status: 'completed' });
    expect(s.state().permissions).toEqual([]);
  });

  it('cursor/create_plan waits as a plan; accepting answers it; a cancel retires a pending one as cancelled', async () => {
    const s = await startWith({ ...launch, cursorExtensions: true });
    const turns: ManagedTurnEvent[] = [];
    s.onTurn((t) => turns.push(t));
    expect((await s.deliver('plan')).outcome).toBe('accepted');
    await expect.poll(() => s.state().permissions.length).toBe(1);
    const plan = s.state().permissions[0]!;
    expect(plan).toMatchObject({ kind: 'plan', summary: { name: 'Refactor', overview: 'Split the module', plan: '1. split\n2. test', todos: ['split'] } });
    expect(() => s.answerInteraction(plan.request_id, { outcome: 'answered', answers: {} })).toThrow(expect.objectContaining({ code: 'invalid_response' }));
    s.answerInteraction(plan.request_id, { outcome: 'accepted' });
    await expect.poll(() => turns.filter((t) => t.phase === 'completed').length).toBe(1);

    expect((await s.deliver('plan')).outcome).toBe('accepted');
    await expect.poll(() => s.state().permissions.length).toBe(1);
    const second = s.state().permissions[0]!;
    await s.cancel();
    expect(s.state().permissions).toEqual([]);
    expect(() => s.answerInteraction(second.request_id, { outcome: 'accepted' })).toThrow(expect.objectContaining({ code: 'request_not_found' }));
  });

  it('without cursorExtensions an agent\'s cursor/* request is not served (method not found), and nothing waits', async () => {
    const s = await start();
    const turns: ManagedTurnEvent[] = [];
    s.onTurn((t) => turns.push(t));
    expect((await s.deliver('ask')).outcome).toBe('accepted');
    await expect.poll(() => turns.find((t) => t.phase === 'completed')).toMatchObject({ status: 'failed' });
    expect(s.state().permissions).toEqual([]);
  });
});
