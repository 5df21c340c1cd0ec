import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { afterEach } from 'vitest';
import type { FakeModel } from '../fake-model/index.js';
import type { PtyAgent } from './pty-agent.js';

// Test support shared by the real-CLI suites (the TUI ones and the daemon-actor ones). They all
// start the same things per test (a fake model, a PTY agent or a CLI-started daemon, temp homes)
// and must tear them down the same way and in the same order after each test, so that one place
// owns that instead of every suite carrying its own copy of the afterEach and its module state.

const run = promisify(execFile);
const CCCC_BIN = createRequire(import.meta.url).resolve('@cccc/cli/bin/cccc.js');

export interface RealCliTeardown {
  /** This test's CCCC_HOME (returned as given): `cccc` runs against it; afterEach stops its daemon. */
  home(dir: string): string;
  /** The PTY agent (returned as given) for afterEach to kill. */
  agent(agent: PtyAgent): PtyAgent;
  /** The fake model (returned as given) for afterEach to close. */
  model(model: FakeModel): FakeModel;
  /** Run after each test, after the daemon, agent and model are gone (temp dirs, mostly). */
  readonly cleanups: Array<() => void>;
  /** `node <cli>/bin/cccc.js …` as users run it, with CCCC_HOME set to `home(…)` and no inherited actor id. */
  cccc(args: string[], env?: NodeJS.ProcessEnv): ReturnType<typeof run>;
}

/**
 * Registers an afterEach that stops the CLI-started daemon (if a home was set), kills the PTY
 * agent, closes the fake model and then runs the cleanups; each is forgotten once disposed.
 */
export function realCliTeardown(): RealCliTeardown {
  let cccHome = '';
  let agent: PtyAgent | undefined;
  let model: FakeModel | undefined;
  const cleanups: Array<() => void> = [];
  const cccc = (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const { CCCC_ACTOR_ID: _inherited, ...rest } = process.env;
    return run(process.execPath, [CCCC_BIN, ...args], { env: { ...rest, CCCC_HOME: cccHome, ...env }, timeout: 30_000 });
  };
  afterEach(async () => {
    if (cccHome) await cccc(['daemon', 'stop']).catch(() => undefined);
    cccHome = '';
    await agent?.kill();
    agent = undefined;
    await model?.close();
    model = undefined;
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  return {
    home: (dir) => (cccHome = dir),
    agent: (a) => (agent = a),
    model: (m) => (model = m),
    cleanups,
    cccc,
  };
}

/**
 * Poll `check` every 100 ms until it returns something truthy, and return that; past `timeoutMs`,
 * throw naming `what`, with `diagnose()`'s report (screen, hooks, model requests) appended.
 */
export async function until<T>(check: () => T | Promise<T>, what: string, timeoutMs: number, diagnose?: () => Promise<string>): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${diagnose ? `\n${await diagnose()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
