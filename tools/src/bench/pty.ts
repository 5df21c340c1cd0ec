// PTY section of `npm run bench`: output throughput into the ring, terminal_tail over a full
// 10 MiB backlog, and submit → accepted latency into a ready fake agent.
import { spawn as spawnChild } from 'node:child_process';
import {
  ActorTerminal,
  DEFAULT_SUBMIT_DELAY_MS,
  OutputRing,
  spawnNodePty,
  stopPtySession,
  terminalTail,
  type PtySession,
} from '@cccc/pty-runtime';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import { fmt, printTable, summarize } from './stats.js';

const MiB = 1024 * 1024;
const env = () => ({ ...(process.env as Record<string, string>), TERM: 'xterm-256color' });

/** Bytes per second of the fake agent's flood through node-pty into an OutputRing. */
async function ptyThroughput(bytes: number): Promise<{ mbps: number; ms: number; ring: OutputRing }> {
  const ring = new OutputRing();
  const pty: PtySession = spawnNodePty({ argv: fakeAgentArgv(['--no-alt-screen', '--flood', String(bytes)]), cwd: process.cwd(), env: env(), cols: 120, rows: 40 });
  let t0 = 0;
  let tail = Buffer.alloc(0);
  const done = new Promise<number>((resolve) => {
    pty.onData((d) => {
      if (t0 === 0) t0 = performance.now();
      ring.append(d);
      // Look for the end marker only in the last bytes seen, not in the whole stream.
      tail = Buffer.concat([tail, Buffer.from(d)]).subarray(-200);
      if (tail.includes('flood done')) resolve(performance.now());
    });
  });
  const t1 = await done;
  await stopPtySession(pty, { graceMs: 1000 });
  const ms = t1 - t0;
  return { mbps: ring.endCursor / MiB / (ms / 1000), ms, ring };
}

/** Baseline: the same flood through a plain pipe (no PTY, no ring). */
async function pipeThroughput(bytes: number): Promise<number> {
  const child = spawnChild(process.execPath, fakeAgentArgv(['--no-alt-screen', '--flood', String(bytes)]).slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
  let t0 = 0;
  let n = 0;
  let tail = '';
  const t1 = await new Promise<number>((resolve) => {
    child.stdout!.on('data', (d: Buffer) => {
      if (t0 === 0) t0 = performance.now();
      n += d.byteLength;
      tail = (tail + d.toString('latin1')).slice(-200);
      if (tail.includes('flood done')) resolve(performance.now());
    });
  });
  child.kill('SIGKILL');
  return n / MiB / ((t1 - t0) / 1000);
}

async function tailLatency(ring: OutputRing, runs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await terminalTail({ ring, cols: 120, rows: 40 });
    out.push(performance.now() - t);
  }
  return out;
}

async function submitLatency(delayMs: number, n: number): Promise<number[]> {
  const terminal = new ActorTerminal({ actorId: 'bench', spawner: spawnNodePty });
  const session = terminal.start({ argv: fakeAgentArgv(), env: env(), cwd: process.cwd() });
  await session.waitReady(5000);
  await session.waitBracketedPaste(5000);
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const r = await terminal.submit(`[cccc] user → bench [event_id=e${i}]: message ${i}`, { submitDelayMs: delayMs });
    if (r.outcome !== 'accepted') throw new Error(`submit ${i}: ${r.outcome}`);
    samples.push(performance.now() - t);
  }
  await stopPtySession(session.pty, { graceMs: 1000 });
  terminal[Symbol.dispose]();
  return samples;
}

export async function benchPty(): Promise<void> {
  const floodBytes = 64 * MiB;
  // Warm-up runs (JIT of the agent and of the ring path) are not reported.
  await pipeThroughput(8 * MiB);
  await ptyThroughput(8 * MiB);
  const pipe = await pipeThroughput(floodBytes);
  const pty = await ptyThroughput(floodBytes);
  printTable(`PTY output throughput (fake agent --flood ${floodBytes / MiB} MiB)`, [
    { path: 'plain pipe, no PTY, no ring (baseline)', 'MB/s': pipe.toFixed(1), target: '' },
    { path: 'node-pty → OutputRing (10 MiB cap)', 'MB/s': pty.mbps.toFixed(1), target: '>= 50 MB/s' },
  ]);

  // The ring now holds the last 10 MiB of real PTY output.
  await tailLatency(pty.ring, 1);
  const tail = summarize(await tailLatency(pty.ring, 7));
  printTable(`terminal_tail over a full backlog (${(pty.ring.retainedBytes / MiB).toFixed(1)} MiB retained, 120×40, max_chars 8000, 7 runs)`, [
    { p50: fmt(tail.p50), max: fmt(tail.p99), mean: fmt(tail.mean), target: '<= 300 ms' },
  ]);

  const zero = summarize(await submitLatency(0, 50));
  const dflt = summarize(await submitLatency(DEFAULT_SUBMIT_DELAY_MS, 3));
  printTable('submit → accepted, ready fake agent over node-pty (bracketed paste on)', [
    { submit_delay: '0 ms (50 submits)', p50: fmt(zero.p50), p99: fmt(zero.p99), target: 'delay + 100 ms' },
    { submit_delay: `${DEFAULT_SUBMIT_DELAY_MS} ms default (3 submits)`, p50: fmt(dflt.p50), p99: fmt(dflt.p99), target: 'delay + 100 ms' },
  ]);
}
