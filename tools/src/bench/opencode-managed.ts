import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { opencodeAcpAdapter } from '@cccc/pty-runtime';
import { reply, startFakeModel } from '../fake-model/index.js';
import { opencodeEnv, readRealClis, writeOpencodeConfig } from '../real-clis/index.js';
import { printTable, summarize } from './stats.js';
import { until } from './until.js';

// `npm run bench -- opencode-managed` (by name: the pinned real opencode, about a minute):
// send → the model receiving the text for a daemon-managed opencode actor (delivery as an ACP
// `session/prompt`, daemon queue and ledger included), beside a bare ACP session of the same
// opencode driven in process (the adapter alone), same fake model, same run.

const run = promisify(execFile);
const CCCC_BIN = createRequire(import.meta.url).resolve('@cccc/cli/bin/cccc.js');
const RUNS = Number(process.env.CCCC_BENCH_OPENCODE_RUNS ?? 10);

export async function benchOpencodeManaged(): Promise<void> {
  const clis = readRealClis();
  if (!clis.ok) throw new Error(`real CLIs unavailable: ${clis.reason}`);
  const path = [clis.binDir, process.env.PATH ?? ''].join(':');
  const home = mkdtempSync(join(tmpdir(), 'cccc-bench-opencode-'));
  const model = await startFakeModel({ steps: Array.from({ length: 200 }, () => reply('ok')) });
  const row = (name: string, s: ReturnType<typeof summarize>) => ({ path: name, n: s.n, 'p50 ms': s.p50.toFixed(1), 'p99 ms': s.p99.toFixed(1), 'mean ms': s.mean.toFixed(1) });
  const { CCCC_ACTOR_ID: _inherited, ...inherited } = process.env;
  const env = { ...inherited, CCCC_HOME: home };
  try {
    // Daemon-managed actor.
    await run(process.execPath, [CCCC_BIN, 'daemon', 'start'], { env, timeout: 30_000 });
    const client = new DaemonClient({ home });
    const { group_id } = await client.call('group_create', { title: 'opencode bench' });
    const scope = join(home, 'scope');
    mkdirSync(scope, { recursive: true });
    writeOpencodeConfig(scope, model.url);
    await client.call('attach', { path: scope, group_id });
    const agentEnv = { ...opencodeEnv(join(home, 'agent'), path), TERM: 'xterm-256color' };
    mkdirSync(join(home, 'agent'), { recursive: true });
    await client.call('actor_add', { group_id, actor_id: 'oc', runtime: 'opencode', env: agentEnv });
    await client.call('group_start', { group_id });
    const actor = async () => (await client.call('actor_list', { group_id })).actors.find((a) => a.id === 'oc');
    await until(async () => (await actor())?.runner_effective === 'opencode_acp', 'the managed actor', 90_000);
    const managed: number[] = [];
    for (let i = -1; i < RUNS; i++) {
      await until(async () => (await actor())?.effective_working_state === 'idle', 'idle', 60_000);
      const text = `bench oc ${i} ${Math.random().toString(36).slice(2, 8)}`;
      const t0 = performance.now();
      await client.call('send', { group_id, text, to: ['oc'], message_mode: 'send' });
      await until(() => model.countOccurrences(text) > 0, `the model to see ${text}`, 60_000, 2);
      if (i >= 0) managed.push(performance.now() - t0); // the first carries the start-up prompt: warm-up
    }
    await run(process.execPath, [CCCC_BIN, 'daemon', 'stop'], { env, timeout: 30_000 }).catch(() => undefined);

    // Baseline: the adapter alone, same opencode and model.
    const bareCwd = join(home, 'bare');
    mkdirSync(bareCwd, { recursive: true });
    writeOpencodeConfig(bareCwd, model.url);
    const bareHome = join(home, 'bare-agent');
    mkdirSync(bareHome, { recursive: true });
    const session = await opencodeAcpAdapter.start({ argv: [join(clis.binDir, 'opencode')], cwd: bareCwd, env: opencodeEnv(bareHome, path), stateDir: join(home, 'bare-state'), sessionName: 'bench' });
    const bare: number[] = [];
    try {
      for (let i = -1; i < RUNS; i++) {
        await until(() => session.state().state === 'idle', 'bare idle', 60_000, 2);
        const text = `bench bare ${i} ${Math.random().toString(36).slice(2, 8)}`;
        const t0 = performance.now();
        void session.deliver(text);
        await until(() => model.countOccurrences(text) > 0, `the model to see ${text}`, 60_000, 2);
        if (i >= 0) bare.push(performance.now() - t0);
      }
    } finally {
      await session.stop(2_000);
    }
    printTable(`opencode-managed: send → model sees the text (real opencode ${RUNS} runs; baseline: bare ACP session in process, same run)`, [
      row('managed: daemon send → ACP session/prompt', summarize(managed)),
      row('baseline: AcpSession.deliver (no daemon)', summarize(bare)),
    ]);
  } finally {
    await run(process.execPath, [CCCC_BIN, 'daemon', 'stop'], { env, timeout: 30_000 }).catch(() => undefined);
    await model.close();
    rmSync(home, { recursive: true, force: true, maxRetries: 3 });
  }
}
