import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempHome } from '@cccc/groups/testing';
import { isEventOfKind, opCatalog, type CCCSEventV1, type OpArgsInput, type OpName, type OpResult } from '@cccc/ipc-protocol';
import { DaemonCallError, DaemonClient, daemonPaths } from '@cccc/ipc-protocol/node';
import { terminalTail } from '@cccc/pty-runtime';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import { expect } from 'vitest';
import { daemonConfigFromEnv } from '../src/config.js';
import { startDaemon, type DaemonServices, type RunningDaemon } from '../src/daemon.js';

// The one daemon test fixture: a real daemon on its unix socket in a temp CCCC_HOME, the client
// that talks to it, its in-process services (the only place besides daemon.ts that sees them
// all), and the file views tests assert on.

/** Short runtime timings: these tests' agents either run or fail at spawn (start-report.test.ts covers the defaults). */
export const FAST_ENV = { CCCC_SUBMIT_DELAY_MS: '50', CCCC_STOP_GRACE_MS: '500', CCCC_PREAMBLE_GAP_MS: '50', CCCC_EARLY_EXIT_WINDOW_MS: '200' };

export interface DaemonFixtureOptions {
  /** Reuse this home (a restart); it is removed when the fixture is disposed. */
  readonly home?: string;
  /** Start from a copy of the reference daemon's CCCC_HOME fixture. */
  readonly fromReference?: boolean;
  /** Daemon tuning variables (e.g. CCCC_EARLY_EXIT_WINDOW_MS); CCCC_HOME is the fixture's home. */
  readonly env?: NodeJS.ProcessEnv;
  /** The CLI entry agents' hooks and MCP server run (`DaemonConfig.cliEntry`); none by default. */
  readonly cliEntry?: string;
}

export class DaemonFixture implements AsyncDisposable {
  readonly client: DaemonClient;

  private constructor(
    readonly home: string,
    readonly daemon: RunningDaemon,
    private readonly removeHome: () => void,
  ) {
    this.client = new DaemonClient({ home });
  }

  static async start(options: DaemonFixtureOptions = {}): Promise<DaemonFixture> {
    const temp = options.home ? undefined : makeTempHome(options);
    const home = options.home ?? temp!.home;
    const config = daemonConfigFromEnv({ ...options.env, CCCC_HOME: home });
    try {
      const daemon = await startDaemon(options.cliEntry ? { ...config, cliEntry: options.cliEntry } : config);
      return new DaemonFixture(home, daemon, () => rmSync(home, { recursive: true, force: true }));
    } catch (error) {
      temp?.[Symbol.dispose]();
      throw error;
    }
  }

  /** The daemon's in-process services, for tests that drive or inspect them directly. */
  get services(): DaemonServices {
    return this.daemon.services;
  }

  /** Call an op and check its result against the catalog schema. */
  async call<K extends OpName>(op: K, args: OpArgsInput<K>): Promise<OpResult<K>> {
    const result = await this.client.call(op, args);
    return opCatalog[op].result.parse(result) as OpResult<K>;
  }

  /** The error a call fails with (fails the test when it succeeds). */
  async errorOf(op: string, args: Record<string, unknown>): Promise<DaemonCallError> {
    const response = await this.client.request({ v: 1, op, args });
    expect(response.ok, `${op} should fail`).toBe(false);
    return new DaemonCallError(op, response.error!);
  }

  async codeOf(op: string, args: Record<string, unknown>): Promise<string> {
    return (await this.errorOf(op, args)).code;
  }

  /** Raw ledger lines of a group (what is really on disk). */
  ledgerLines(groupId: string): string[] {
    const path = join(this.home, 'groups', groupId, 'ledger.jsonl');
    return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '') : [];
  }

  /** The same lines, parsed. */
  ledgerEvents(groupId: string): Array<{ kind: string; by: string; scope_key: string; data: Record<string, unknown> }> {
    return this.ledgerLines(groupId).map((l) => JSON.parse(l));
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
    const out = [this.daemonLog()];
    const groups = join(this.home, 'groups');
    for (const gid of readdirSafe(groups)) {
      for (const name of ['ledger.jsonl', 'group.yaml']) {
        const file = join(groups, gid, name);
        if (existsSync(file)) out.push(readFileSync(file, 'utf8'));
      }
    }
    return out.join('\n');
  }

  /** A fresh directory to attach. */
  projectDir(name: string): string {
    const dir = join(this.home, 'projects', name);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.daemon.stop();
    this.removeHome();
  }
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

export function startDaemonFixture(options: DaemonFixtureOptions = {}): Promise<DaemonFixture> {
  return DaemonFixture.start(options);
}

/** A fixture with FAST_ENV timings, for tests that run agents. */
export function runtimeFixture(env: NodeJS.ProcessEnv = {}, options: Omit<DaemonFixtureOptions, 'env'> = {}): Promise<DaemonFixture> {
  return DaemonFixture.start({ ...options, env: { ...FAST_ENV, ...env } });
}

/** A group with a foreman (`lead`) and a peer (`p1`), created over the socket. */
export async function groupWithTeam(d: DaemonFixture, title = 'team'): Promise<string> {
  const { group_id } = await d.call('group_create', { title });
  await d.call('actor_add', { group_id, actor_id: 'lead', runtime: 'custom', command: ['cat'] });
  await d.call('actor_add', { group_id, actor_id: 'p1', runtime: 'custom', command: ['cat', '-n'] });
  return group_id;
}

/** A group with an attached temp scope and fake-agent actors (not started). */
export async function fakeAgentGroup(fx: DaemonFixture, actors: Record<string, string[]> = { peer1: [] }): Promise<string> {
  const { group_id } = await fx.client.call('group_create', { title: 'pty' });
  const dir = join(fx.home, 'scopes', group_id);
  mkdirSync(dir, { recursive: true });
  await fx.client.call('attach', { path: dir, group_id });
  for (const [actor_id, args] of Object.entries(actors)) {
    await fx.client.call('actor_add', { group_id, actor_id, runtime: 'custom', command: fakeAgentArgv(args) });
  }
  return group_id;
}

export async function waitFor<T>(probe: () => T | Promise<T>, timeoutMs = 10_000, what = 'condition'): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function events(fx: DaemonFixture, gid: string): CCCSEventV1[] {
  return fx.ledgerLines(gid).map((l) => JSON.parse(l) as CCCSEventV1);
}

export function deliveries(fx: DaemonFixture, gid: string, sourceId: string): string[] {
  return events(fx, gid)
    .filter((e) => isEventOfKind(e, 'runtime.delivery'))
    .filter((e) => e.data.source_event_id === sourceId)
    .map((e) => `${e.data.actor_id}:${e.data.state}`);
}

/** Plain text of the actor's screen and scrollback. */
export async function screenOf(fx: DaemonFixture, gid: string, aid: string): Promise<string> {
  const session = fx.services.runtimes.get(gid, aid)?.session;
  if (!session) return '';
  return (await terminalTail(session, { maxChars: 200_000 })).text;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
