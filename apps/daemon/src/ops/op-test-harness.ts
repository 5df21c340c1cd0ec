import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempHome, type TempHome } from '@cccc/groups/testing';
import { opCatalog, type OpArgsInput, type OpName, type OpResult } from '@cccc/ipc-protocol';
import { DaemonCallError, DaemonClient, daemonPaths } from '@cccc/ipc-protocol/node';
import { expect } from 'vitest';
import { daemonConfigFromEnv } from '../config.js';
import { startDaemon, type RunningDaemon } from '../daemon.js';

/** A real daemon on its unix socket in a temp CCCC_HOME, plus the file views tests assert on. */
export class OpTestDaemon implements AsyncDisposable {
  readonly client: DaemonClient;

  private constructor(
    readonly temp: TempHome,
    readonly daemon: RunningDaemon,
  ) {
    this.client = new DaemonClient({ home: temp.home });
  }

  /** `env`: daemon tuning variables (e.g. CCCC_EARLY_EXIT_WINDOW_MS); CCCC_HOME is the temp home. */
  static async start(options: { fromReference?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<OpTestDaemon> {
    const temp = makeTempHome(options);
    const daemon = await startDaemon(daemonConfigFromEnv({ ...options.env, CCCC_HOME: temp.home }));
    return new OpTestDaemon(temp, daemon);
  }

  get home(): string {
    return this.temp.home;
  }

  /** Call an op and check its result against the catalog schema. */
  async call<K extends OpName>(op: K, args: OpArgsInput<K>): Promise<OpResult<K>> {
    const result = await this.client.call(op, args);
    return opCatalog[op].result.parse(result) as OpResult<K>;
  }

  /** The error code a call fails with (fails the test when it succeeds). */
  async errorOf(op: string, args: Record<string, unknown>): Promise<DaemonCallError> {
    const response = await this.client.request({ v: 1, op, args });
    expect(response.ok, `${op} should fail`).toBe(false);
    return new DaemonCallError(op, response.error!);
  }

  async codeOf(op: string, args: Record<string, unknown>): Promise<string> {
    return (await this.errorOf(op, args)).code;
  }

  ledgerLines(groupId: string): Array<{ kind: string; by: string; scope_key: string; data: Record<string, unknown> }> {
    const path = join(this.home, 'groups', groupId, 'ledger.jsonl');
    if (!existsSync(path)) return [];
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l));
  }

  groupYaml(groupId: string): string {
    return readFileSync(join(this.home, 'groups', groupId, 'group.yaml'), 'utf8');
  }

  /** Everything a rejection must leave untouched for one group. */
  snapshot(groupId: string): { ledger: number; yaml: string } {
    return { ledger: this.ledgerLines(groupId).length, yaml: this.groupYaml(groupId) };
  }

  daemonLog(): string {
    const path = daemonPaths(this.home).log;
    return existsSync(path) ? readFileSync(path, 'utf8') : '';
  }

  /** Every text file under the home except secrets: where a secret must never appear. */
  publicText(): string {
    return [this.daemonLog(), ...this.allLedgers()].join('\n');
  }

  private allLedgers(): string[] {
    const out: string[] = [];
    const groups = join(this.home, 'groups');
    if (!existsSync(groups)) return out;
    for (const gid of readdirSafe(groups)) {
      const file = join(groups, gid, 'ledger.jsonl');
      if (existsSync(file)) out.push(readFileSync(file, 'utf8'));
      const yaml = join(groups, gid, 'group.yaml');
      if (existsSync(yaml)) out.push(readFileSync(yaml, 'utf8'));
    }
    return out;
  }

  /** A fresh directory to attach. */
  projectDir(name: string): string {
    const dir = join(this.home, 'projects', name);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.daemon.stop();
    this.temp[Symbol.dispose]();
  }
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** A group with a foreman (`lead`) and a peer (`p1`), created over the socket. */
export async function groupWithTeam(d: OpTestDaemon, title = 'team'): Promise<string> {
  const { group_id } = await d.call('group_create', { title });
  await d.call('actor_add', { group_id, actor_id: 'lead', runtime: 'custom', command: ['cat'] });
  await d.call('actor_add', { group_id, actor_id: 'p1', runtime: 'custom', command: ['cat', '-n'] });
  return group_id;
}
