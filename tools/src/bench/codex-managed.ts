import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { reply, startFakeModel, type FakeModel } from '../fake-model/index.js';
import { codexEnv, readRealClis, writeCodexConfig } from '../real-clis/index.js';
import { printTable, summarize } from './stats.js';
import { until } from './until.js';

// `npm run bench -- codex-managed` (by name: the pinned real codex, about a minute):
// 1. send → the model receiving the text, for a codex actor run managed (delivery as the
//    app-server's `turn/start`) beside the native PTY path (typed into the hooked TUI), same
//    daemon, same fake model, same run;
// 2. daemon RSS and process count with 5 managed codex actors, beside an idle daemon and 5
//    native PTY codex actors measured in the same run.

const run = promisify(execFile);
const CCCC_BIN = createRequire(import.meta.url).resolve('@cccc/cli/bin/cccc.js');
const RUNS = Number(process.env.CCCC_BENCH_CODEX_RUNS ?? 10);

type Client = InstanceType<typeof DaemonClient>;

interface Daemon extends AsyncDisposable {
  readonly client: Client;
  readonly groupId: string;
  readonly pid: number;
  readonly model: FakeModel;
  addCodex(actorId: string, managed: boolean): Promise<void>;
}

async function startDaemon(): Promise<Daemon> {
  const clis = readRealClis();
  if (!clis.ok) throw new Error(`real CLIs unavailable: ${clis.reason}`);
  const home = mkdtempSync(join(tmpdir(), 'cccc-bench-codex-'));
  const { CCCC_ACTOR_ID: _inherited, ...inherited } = process.env;
  // Managed is the default for codex; the baseline actor runs native (CCCC_CODEX_MANAGED=0), the
  // managed one asks for it by its runner `headless`.
  const env = { ...inherited, CCCC_HOME: home, CCCC_CODEX_MANAGED: '0' };
  const model = await startFakeModel({ steps: Array.from({ length: 200 }, () => reply('ok')) });
  await run(process.execPath, [CCCC_BIN, 'daemon', 'start'], { env, timeout: 30_000 });
  const client = new DaemonClient({ home });
  const { pid } = await client.call('ping', {});
  const { group_id } = await client.call('group_create', { title: 'codex bench' });
  const scope = join(home, 'scope');
  mkdirSync(scope, { recursive: true });
  await client.call('attach', { path: scope, group_id });
  const agentEnv = codexEnv(join(home, 'agent'), [clis.binDir, process.env.PATH ?? ''].join(':'));
  writeCodexConfig(agentEnv.CODEX_HOME!, model.url);
  return {
    client,
    groupId: group_id,
    pid,
    model,
    async addCodex(actorId, managed) {
      await client.call('actor_add', { group_id, actor_id: actorId, runtime: 'codex', env: { ...agentEnv, TERM: 'xterm-256color' } });
      if (managed) await client.call('actor_update', { group_id, actor_id: actorId, patch: { runner: 'headless' } });
    },
    async [Symbol.asyncDispose]() {
      await run(process.execPath, [CCCC_BIN, 'daemon', 'stop'], { env, timeout: 30_000 }).catch(() => undefined);
      await model.close();
      rmSync(home, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

async function actorState(d: Daemon, actorId: string) {
  return (await d.client.call('actor_list', { group_id: d.groupId })).actors.find((a) => a.id === actorId);
}

/** send → the fake model holding a request with the text (polled every 2 ms), idle between sends. */
async function sendToModel(d: Daemon, actorId: string, runs: number): Promise<number[]> {
  const samples: number[] = [];
  // The first delivery carries the start-up prompt: a warm-up, not a sample.
  for (let i = -1; i < runs; i++) {
    let last: unknown;
    // A hooked native codex reports idle only after its first turn (SessionStart comes with it).
    if (i >= 0) await until(async () => (last = await actorState(d, actorId)) && (last as { effective_working_state?: string }).effective_working_state === 'idle', `${actorId} idle`, 60_000).catch((e: Error) => {
      throw new Error(`${e.message}: ${JSON.stringify(last)}`);
    });
    const text = `bench ${actorId} ${i} ${Math.random().toString(36).slice(2, 8)}`;
    const t0 = performance.now();
    await d.client.call('send', { group_id: d.groupId, text, to: [actorId], message_mode: 'send' });
    await until(() => d.model.countOccurrences(text) > 0, `the model to see ${text}`, 60_000, 2);
    if (i >= 0) samples.push(performance.now() - t0);
  }
  return samples;
}

/** The daemon and every process below it (its actors' TUIs and app-servers), from /proc. */
function processTree(root: number): { count: number; rssMiB: number; daemonRssMiB: number } {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(name), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p && hops < 64; p = parent.get(p), hops++) if (p === root) return true;
    return false;
  };
  const rss = (pid: number) => {
    try {
      return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
    } catch {
      return 0;
    }
  };
  const pids = [...parent.keys()].filter(inTree);
  return { count: pids.length, rssMiB: pids.reduce((sum, p) => sum + rss(p), 0), daemonRssMiB: rss(root) };
}

async function footprint(actors: number, managed: boolean | null): Promise<Record<string, string | number>> {
  await using d = await startDaemon();
  for (let i = 1; i <= actors; i++) await d.addCodex(`peer${i}`, managed === true);
  if (actors > 0) {
    await d.client.call('group_start', { group_id: d.groupId });
    await until(async () => {
      const list = (await d.client.call('actor_list', { group_id: d.groupId })).actors;
      return list.length === actors && list.every((a) => a.running);
    }, 'every actor running', 120_000);
  }
  // Let the TUIs and servers settle before sampling.
  await new Promise((r) => setTimeout(r, 5_000));
  const t = processTree(d.pid);
  return {
    setup: actors === 0 ? 'idle daemon (baseline)' : `${actors} codex actors, ${managed ? 'managed (app-server + attached TUI)' : 'native PTY (hooked TUI)'}`,
    'daemon RSS MiB': t.daemonRssMiB.toFixed(1),
    'processes (daemon tree)': t.count,
    'tree RSS MiB': t.rssMiB.toFixed(1),
  };
}

export async function benchCodexManaged(): Promise<void> {
  {
    await using d = await startDaemon();
    await d.addCodex('managed', true);
    await d.addCodex('native', false);
    await d.client.call('group_start', { group_id: d.groupId });
    await until(async () => (await actorState(d, 'managed'))?.runner_effective === 'codex_app_server', 'the managed actor', 60_000);
    await until(async () => (await actorState(d, 'native'))?.running, 'the native actor', 60_000);
    const managed = summarize(await sendToModel(d, 'managed', RUNS));
    const native = summarize(await sendToModel(d, 'native', RUNS));
    const row = (name: string, s: ReturnType<typeof summarize>) => ({ path: name, n: s.n, 'p50 ms': s.p50.toFixed(1), 'p99 ms': s.p99.toFixed(1), 'mean ms': s.mean.toFixed(1) });
    printTable(`codex-managed: send → model sees the text (real codex ${RUNS} runs; baseline: native PTY, same daemon and run)`, [
      row('managed: app-server turn/start', managed),
      row('baseline: native PTY (typed into the TUI)', native),
    ]);
  }
  printTable('codex-managed: footprint (real codex; baselines: idle daemon, 5 native PTY codex actors, same run)', [
    await footprint(0, null),
    await footprint(5, false),
    await footprint(5, true),
  ]);
}
