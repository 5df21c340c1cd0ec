// Working-state section (issue 7): what deriving every actor's working state once per second
// costs the daemon. Baseline in the same run: the same daemon and actors with the derivation
// tick pushed out of the window (CCCC_WORKING_STATE_TICK_MS=3600000), so the difference is the
// tick alone. Also actor_list latency, which derives each listed actor on demand.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import { startBenchDaemon } from './ping.js';
import { fmt, printTable, summarize } from './stats.js';

const ACTORS = 20;
const WINDOW_MS = 10_000;
/** Linux USER_HZ; /proc/<pid>/stat counts CPU time in these ticks. */
const CLK_TCK = 100;

/** utime + stime of a process in ms (Linux /proc), or NaN where /proc is unavailable. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
  } catch {
    return NaN;
  }
}

async function waitAllRunning(client: DaemonClient, gid: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { actors } = await client.call('actor_list', { group_id: gid });
    if (actors.length === ACTORS && actors.every((a) => a.running)) return;
    if (Date.now() > deadline) throw new Error('actors did not all start');
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function measure(tickMs: number): Promise<{ cpuPct: number; list: number[] }> {
  const daemon = await startBenchDaemon({ CCCC_WORKING_STATE_TICK_MS: String(tickMs) });
  const client = new DaemonClient({ home: daemon.home });
  try {
    const gid = (await client.call('group_create', { title: 'bench-working-state' })).group_id;
    const scope = join(daemon.home, 'scope');
    mkdirSync(scope, { recursive: true });
    await client.call('attach', { path: scope, group_id: gid });
    for (let i = 0; i < ACTORS; i++) {
      await client.call('actor_add', { group_id: gid, actor_id: `agent${String(i + 1).padStart(2, '0')}`, runtime: 'custom', command: fakeAgentArgv([]) });
    }
    await client.call('group_start', { group_id: gid });
    await waitAllRunning(client, gid, 120_000);
    await new Promise((r) => setTimeout(r, 3000)); // start-up output settles
    const pid = daemon.child.pid!;
    const c0 = cpuMs(pid);
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, WINDOW_MS));
    const cpuPct = ((cpuMs(pid) - c0) / (performance.now() - t0)) * 100;
    const list: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await client.call('actor_list', { group_id: gid });
      list.push(performance.now() - t);
    }
    await client.call('group_stop', { group_id: gid });
    return { cpuPct, list };
  } finally {
    await daemon.stop();
  }
}

export async function benchWorkingState(): Promise<void> {
  const off = await measure(3_600_000);
  const on = await measure(1000);
  printTable(`working state: daemon CPU over ${WINDOW_MS / 1000} s with ${ACTORS} idle fake-agent actors running`, [
    { derivation: 'tick out of the window (baseline)', 'CPU %': off.cpuPct.toFixed(2) },
    { derivation: 'once per second (default)', 'CPU %': on.cpuPct.toFixed(2) },
  ]);
  const a = summarize(off.list);
  const b = summarize(on.list);
  printTable(`working state: actor_list with ${ACTORS} running actors (each derived on demand)`, [
    { run: 'baseline daemon', p50: fmt(a.p50), p99: fmt(a.p99), n: a.n },
    { run: 'default tick', p50: fmt(b.p50), p99: fmt(b.p99), n: b.n },
  ]);
}
