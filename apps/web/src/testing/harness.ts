import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// Test-only (not bundled): a real daemon in a temp CCCC_HOME, started through the BUILT cli
// binary (the Web may not import @cccc/daemon: both sit at layer 3).

const run = promisify(execFile);
export const CCCC_BIN = fileURLToPath(new URL('../../../cli/bin/cccc.js', import.meta.url));

export interface DaemonHome {
  readonly home: string;
  cccc(args: readonly string[]): Promise<{ stdout: string; stderr: string }>;
  stop(): Promise<void>;
}

/** `daemonEnv`: more of the daemon's environment (its tuning knobs, e.g. a shorter threshold). */
export async function startDaemonHome(daemonEnv: Readonly<Record<string, string>> = {}): Promise<DaemonHome> {
  const home = mkdtempSync(join(tmpdir(), 'cccc-web-test-'));
  const { CCCC_ACTOR_ID: _ignored, ...env } = process.env;
  const cccc = (args: readonly string[]) =>
    run(process.execPath, [CCCC_BIN, ...args], { env: { ...env, ...daemonEnv, CCCC_HOME: home }, timeout: 60_000 });
  // On a loaded machine the first start can outlive the CLI's ping deadline while the daemon
  // still comes up; a second `daemon start` then finds it running (or starts one).
  await cccc(['daemon', 'start']).catch(() => cccc(['daemon', 'start']));
  return {
    home,
    cccc,
    async stop() {
      await cccc(['daemon', 'stop']).catch(() => undefined);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Poll until `check` is truthy (deterministic waits on real sockets, never fixed sleeps). */
export async function until<T>(check: () => T | Promise<T>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
