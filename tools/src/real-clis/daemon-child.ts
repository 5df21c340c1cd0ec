import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { until, type RealCliTeardown } from './test-support.js';

// For the managed-runtime suites, which kill the daemon with -9 and check what the next one
// retires: the daemon as a child process of the test, and probes of the processes it owned.

const CCCC_BIN = createRequire(import.meta.url).resolve('@cccc/cli/bin/cccc.js');

/** Any process left in the process group `pgid` (a launcher's native child included). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** `cccc daemon run` as a child the test can kill -9 (teardown's `daemon stop` ends a later one). */
export function runDaemon(teardown: RealCliTeardown, home: string, extra: NodeJS.ProcessEnv = {}): ChildProcess {
  const { CCCC_ACTOR_ID: _inherited, ...env } = process.env;
  const child = spawn(process.execPath, [CCCC_BIN, 'daemon', 'run'], { env: { ...env, ...extra, CCCC_HOME: home }, stdio: 'ignore' });
  teardown.cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return child;
}

/** A client once the daemon of `home` answers ping. */
export async function daemonUp(home: string): Promise<DaemonClient> {
  const client = new DaemonClient({ home });
  await until(async () => (await client.request({ v: 1, op: 'ping', args: {} }).catch(() => undefined))?.ok, 'the daemon', 20_000);
  return client;
}

export type LedgerEntry = { kind: string; by: string; data: Record<string, unknown> };

/** Every event of a group's active ledger file, in order. */
export function ledgerOf(home: string, groupId: string): LedgerEntry[] {
  return readFileSync(join(home, 'groups', groupId, 'ledger.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as LedgerEntry);
}
