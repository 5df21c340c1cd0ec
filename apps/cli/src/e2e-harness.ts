import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, vi } from 'vitest';

// Shared by the *.e2e.test.ts files: the BUILT cli as real processes against a real daemon
// in a temp CCCC_HOME. Not part of the bundle (tsup builds only index.ts and cli.ts).

const run = promisify(execFile);
export const BIN = fileURLToPath(new URL('../bin/cccc.js', import.meta.url));

/**
 * Poll `check` every 50 ms until it returns something truthy, and return that; past `timeoutMs`,
 * throw naming `what`. Shared so the CLI e2e files that wait on a daemon (a ping, a confirmation)
 * poll the same way instead of each carrying its own copy.
 */
export async function until<T>(check: () => T | Promise<T>, what: string, timeoutMs = 60_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliHarness {
  /** The temp CCCC_HOME of the current test. */
  home(): string;
  cccc(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<CliRun>;
  /** Run with --json, expect exit 0 and return the parsed stdout. */
  json<T = any>(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<T>;
  /** A long-running cccc process (e.g. `tail -f`), killed in afterEach if still alive. */
  spawn(args: readonly string[], env?: NodeJS.ProcessEnv): LiveCli;
}

/** Register beforeEach/afterEach that give each test its own home and running daemon. */
export function useDaemonHome(options: { startDaemon?: boolean } = {}): CliHarness {
  // A test here runs a dozen real node processes (~0.5 s each idle, several seconds each on a
  // loaded 2-core box), so the shared 20 s default is too tight for these files only.
  vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });
  let home = '';
  const children: ChildProcess[] = [];
  const baseEnv = (env: NodeJS.ProcessEnv) => {
    // A CCCC_ACTOR_ID inherited from the developer's shell would change every default --by.
    const { CCCC_ACTOR_ID: _ignored, ...rest } = process.env;
    return { ...rest, CCCC_HOME: home, ...env };
  };
  const cccc = async (args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> => {
    try {
      const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: baseEnv(env), timeout: 20_000 });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code?: number; stdout: string; stderr: string };
      return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout, stderr: e.stderr };
    }
  };
  beforeEach(async () => {
    home = mkdtempSync(join(tmpdir(), 'cccc-cli-e2e-'));
    if (options.startDaemon !== false) {
      const started = await cccc(['daemon', 'start']);
      if (started.code !== 0) throw new Error(`daemon start failed: ${started.stderr}`);
    }
  });
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    await cccc(['daemon', 'stop']).catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
  });
  return {
    home: () => home,
    cccc,
    async json(args, env) {
      const res = await cccc([...args, '--json'], env);
      if (res.code !== 0) throw new Error(`cccc ${args.join(' ')} exited ${res.code}: ${res.stderr}${res.stdout}`);
      return JSON.parse(res.stdout);
    },
    spawn(args, env = {}) {
      const child = spawn(process.execPath, [BIN, ...args], { env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      return new LiveCli(child);
    },
  };
}

/** A long-running cccc process whose output is collected from its first byte. */
export class LiveCli {
  stdout = '';
  stderr = '';
  constructor(readonly child: ChildProcess) {
    child.stdout!.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
  }

  /** Poll until stdout contains `text`; a timeout reports everything printed so far. */
  async waitFor(text: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.stdout.includes(text)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for "${text}"; stdout: ${this.stdout}; stderr: ${this.stderr}`);
      if (this.child.exitCode !== null) throw new Error(`exited ${this.child.exitCode} before "${text}"; stdout: ${this.stdout}; stderr: ${this.stderr}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}
