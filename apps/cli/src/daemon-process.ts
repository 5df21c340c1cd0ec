import { spawn } from 'node:child_process';
import { openSync, closeSync, mkdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { callOp, daemonPaths, ensureCcccHome } from '@cccc/ipc-protocol/call';
import type { OpResult } from '@cccc/ipc-protocol';
import { cliEntry } from './cli-entry.js';

/** The daemon answering ping at this home, or undefined when none does. */
export async function probeDaemon(home: string, timeoutMs = 2000): Promise<OpResult<'ping'> | undefined> {
  try {
    return await callOp(home, 'ping', {}, { timeoutMs, connectAttempts: 1 });
  } catch {
    return undefined;
  }
}

/**
 * Node options of the daemon this CLI starts. V8 grows the young generation to 2 × 16 MiB while
 * the daemon loads, and gives the pages back only when its memory reducer runs, seconds to
 * minutes later depending on load: capped at 2 MiB semi-spaces the idle daemon holds ~15 MB less
 * from the start, with the same ping latency and send rates (issue 35, memory at rest; `npm run
 * bench -- idle-rss`). A V8 heap flag only takes effect on the command line; it applies to this
 * node process alone (agents and other node children do not inherit it).
 */
export const DAEMON_NODE_ARGS: readonly string[] = ['--max-semi-space-size=2'];

export interface SpawnedDaemon {
  readonly pid: number;
  readonly ping: OpResult<'ping'>;
}

/**
 * Start `node <DAEMON_NODE_ARGS> <bin shim> daemon run` detached (the same entry the daemon then hands its agents
 * and reports in ping), its stdout/stderr appended to ccccd.log, and return once it
 * answers ping. A daemon that exits first (e.g. refused config) is reported with its exit code.
 */
export async function spawnDaemon(home: string, env: NodeJS.ProcessEnv, timeoutMs = 15_000): Promise<SpawnedDaemon> {
  const paths = daemonPaths(home);
  ensureCcccHome(home);
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  const out = openSync(paths.log, 'a', 0o600);
  const child = spawn(process.execPath, [...DAEMON_NODE_ARGS, cliEntry(), 'daemon', 'run'], {
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...env, CCCC_HOME: home },
  });
  closeSync(out);
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  child.unref();
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited !== undefined) throw new Error(`daemon exited with code ${exited} during start; see ${paths.log}`);
    const ping = await probeDaemon(home, 500);
    if (ping && ping.pid === child.pid) return { pid: child.pid!, ping };
    await sleep(50);
  }
  throw new Error(`daemon did not answer ping within ${timeoutMs} ms; see ${paths.log}`);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
