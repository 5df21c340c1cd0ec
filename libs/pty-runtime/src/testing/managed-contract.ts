import { afterEach, describe, expect, it } from 'vitest';
import type { ManagedExit, ManagedSession, ManagedState, ManagedTurnEvent } from '../managed/runtime-adapter.js';

/** One started session and what the harness can tell about the model behind it. */
export interface ManagedHarness {
  readonly session: ManagedSession;
  /** How many times the model behind the session was sent `text`. */
  seen(text: string): number;
}

export interface ManagedContractOptions {
  readonly name: string;
  /** A fresh session whose model answers every turn with a short reply. */
  readonly start: () => Promise<ManagedHarness>;
  /** Per test (real providers start slowly). */
  readonly timeoutMs?: number;
}

function until<T>(check: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const tick = () => {
      const value = check();
      if (value !== undefined) return resolve(value);
      if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 50);
    };
    tick();
  });
}

/**
 * What every managed runtime adapter must do: a started session is idle with its provider
 * session id and a terminal to attach; a delivery is admitted as one turn whose text the model
 * sees exactly once, with working → idle from the session's own events; a stop ends it with
 * exactly one exit, after which deliveries fail without reaching anything.
 */
export function describeManagedRuntimeContract(options: ManagedContractOptions): void {
  const timeout = options.timeoutMs ?? 60_000;
  const live: ManagedSession[] = [];
  const start = async () => {
    const harness = await options.start();
    live.push(harness.session);
    return harness;
  };
  afterEach(async () => {
    await Promise.all(live.splice(0).map((s) => s.stop(1_000)));
  });

  describe(`managed runtime contract: ${options.name}`, () => {
    it('starts idle on its own session with a terminal to attach', async () => {
      const { session } = await start();
      expect(session.sessionId).toMatch(/\S/);
      expect(session.exited).toBe(false);
      expect(session.state()).toMatchObject({ session_id: session.sessionId, state: 'idle', working: false, permissions: [] });
      const argv = session.terminalArgv();
      expect(argv.length).toBeGreaterThan(0);
      expect(argv.join(' ')).toContain(session.sessionId);
    }, timeout);

    it('a delivery is one admitted turn: the model sees its text once, working then idle from session events', async () => {
      const { session, seen } = await start();
      const states: ManagedState[] = [];
      const turns: ManagedTurnEvent[] = [];
      session.onStateChanged((s) => states.push(s));
      session.onTurn((t) => turns.push(t));
      const text = `managed contract delivery ${Math.random().toString(36).slice(2, 8)}`;
      const outcome = await session.deliver(text);
      if (outcome.outcome !== 'accepted') throw new Error(`delivery not admitted: ${JSON.stringify(outcome)}`);
      await until(() => turns.find((t) => t.phase === 'completed' && t.turnId === outcome.turnId), 'the turn to complete', timeout);
      await until(() => (session.state().state === 'idle' ? true : undefined), 'idle', timeout);
      expect(turns.find((t) => t.phase === 'started')?.turnId).toBe(outcome.turnId);
      expect(states.some((s) => s.working && s.state === 'working')).toBe(true);
      expect(states.at(-1)).toMatchObject({ state: 'idle', working: false, active_turn_id: null });
      expect(seen(text)).toBe(1);
    }, timeout);

    it('stop ends the session with exactly one exit; a later delivery fails unsent', async () => {
      const { session, seen } = await start();
      const exits: ManagedExit[] = [];
      session.onExit((e) => exits.push(e));
      const exit = await session.stop();
      expect(exit.reason).toBe('stopped');
      // Nothing of the provider's process group is left (a launcher's native child included);
      // a killed member stays visible until its new parent reaps it, hence the short wait.
      const groupGone = () => {
        try {
          process.kill(-session.pid, 0);
          return undefined;
        } catch {
          return true;
        }
      };
      await until(groupGone, 'the process group to be empty', 5_000);
      expect(await session.stop()).toBe(exit);
      expect(session.exited).toBe(true);
      expect(session.state()).toMatchObject({ state: 'stopped', working: false });
      const text = 'after stop 9c1d';
      expect(await session.deliver(text)).toMatchObject({ outcome: 'failed' });
      await new Promise((r) => setTimeout(r, 200));
      expect(exits).toHaveLength(1);
      expect(seen(text)).toBe(0);
    }, timeout);
  });
}
