import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ManagedTurnEvent } from '../runtime-adapter.js';
import type { AcpLaunch } from './acp-launch.js';
import { AcpSession } from './acp-session.js';
import { grokAcpLaunch, planGrokLaunch } from './grok-launch.js';

// AcpSession with Grok correlation against the scripted agent's "grok" flavour (fixtures/; built
// against §8.4, not a real Grok CLI, which cannot be installed here).

const FAKE = join(import.meta.dirname, 'fixtures', 'fake-acp-agent.mjs');
const base = grokAcpLaunch(planGrokLaunch(['grok']));
const launch: AcpLaunch = { ...base, agentArgv: [process.execPath, FAKE] };
const sessions: AcpSession[] = [];
const dirs: string[] = [];

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'grok-session-'));
  dirs.push(d);
  return d;
}

async function start(state: string, resumeSessionId?: string): Promise<AcpSession> {
  const cwd = tempDir();
  const env = { PATH: process.env.PATH ?? '', FAKE_ACP_FLAVOR: 'grok', FAKE_ACP_STATE_DIR: state };
  const s = await AcpSession.start(launch, { argv: [], cwd, env, stateDir: cwd, sessionName: 't', ...(resumeSessionId ? { resumeSessionId } : {}) });
  sessions.push(s);
  return s;
}

const logOf = (state: string) => readFileSync(join(state, 'log.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.stop(1_000)));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('AcpSession with Grok correlation', () => {
  it('opts in to the echo; the correlated turn_completed settles the turn before a late prompt response; the next prompt waits for that response', async () => {
    const state = tempDir();
    const s = await start(state);
    const init = logOf(state).find((e) => e.request === 'initialize');
    expect(init?.params.clientCapabilities._meta).toEqual({ 'x.ai/userMessageEcho': true });
    expect(logOf(state).find((e) => e.request === 'session/new')?.params._meta).toEqual({ clientUserMessageEcho: true });
    const turns: ManagedTurnEvent[] = [];
    s.onTurn((t) => turns.push(t));
    const t0 = Date.now();
    const first = await s.deliver('late 6000');
    expect(first).toMatchObject({ outcome: 'accepted' });
    // Settled by the durable terminal, well before the RPC answers (6 s).
    await expect.poll(() => turns.find((t) => t.phase === 'completed'), { timeout: 5_000 }).toMatchObject({ status: 'completed', turnId: (first as { turnId: string }).turnId });
    expect(Date.now() - t0).toBeLessThan(5_500);
    expect(s.state().state).toBe('idle');
    const second = s.deliver('hello');
    expect(await second).toMatchObject({ outcome: 'accepted' });
    // One session/prompt at a time: the second was sent only after the first RPC answered.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(5_900);
    await expect.poll(() => turns.filter((t) => t.phase === 'completed').length).toBe(2);
    expect(turns.map((t) => t.phase)).toEqual(['started', 'completed', 'started', 'completed']);
  }, 30_000);

  it('send_now cancellation settles the old turn first; its late cancelled terminal does not touch the next turn', async () => {
    const state = tempDir();
    const s = await start(state);
    const turns: ManagedTurnEvent[] = [];
    s.onTurn((t) => turns.push(t));
    const hung = await s.deliver('hang');
    expect(hung.outcome).toBe('accepted');
    await s.cancel();
    expect(turns.at(-1)).toMatchObject({ phase: 'completed', status: 'interrupted', turnId: (hung as { turnId: string }).turnId });
    const next = await s.deliver('hello');
    expect(next.outcome).toBe('accepted');
    await expect.poll(() => turns.filter((t) => t.phase === 'completed').length).toBe(2);
    expect(turns.filter((t) => t.phase === 'completed').map((t) => [t.turnId, t.status])).toEqual([
      [(hung as { turnId: string }).turnId, 'interrupted'],
      [(next as { turnId: string }).turnId, 'completed'],
    ]);
  }, 30_000);

  it('a resumed session binds the opt-in again, and its replayed records admit no input', async () => {
    const state = tempDir();
    const s = await start(state);
    expect((await s.deliver('hello')).outcome).toBe('accepted');
    await expect.poll(() => s.state().state).toBe('idle');
    const id = s.sessionId;
    await s.stop(1_000);
    const r = await start(state, id);
    const turns: ManagedTurnEvent[] = [];
    r.onTurn((t) => turns.push(t));
    expect(logOf(state).filter((e) => e.request === 'session/load').at(-1)?.params._meta).toEqual({ clientUserMessageEcho: true });
    await new Promise((res) => setTimeout(res, 300));
    expect(turns).toEqual([]);
    expect(r.state()).toMatchObject({ state: 'idle', active_turn_id: null });
    expect((await r.deliver('again')).outcome).toBe('accepted');
    await expect.poll(() => turns.map((t) => t.phase)).toEqual(['started', 'completed']);
  }, 30_000);
});
