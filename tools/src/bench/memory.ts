// Memory section (issue 20, points 2, 3 and 6): RSS of a real daemon process (/proc/<pid>/status)
// under a sustained mixed load, at a cold open of a long history beside an empty home, across
// ledger rotations (with send latency beside the steady value of the same run), with stuck
// events_stream subscribers beside the same sends without them; and the Web process's RSS over
// uploads beside plain sends. Minutes: `npm run bench -- memory` only.
// CCCC_BENCH_MEMORY_MINUTES (sustained load, default 10), CCCC_BENCH_MEMORY_EVENTS (large home,
// default 192,000), CCCC_BENCH_MEMORY_PARTS (e.g. "load,cold,rotation,stuck,web"),
// CCCC_BENCH_ROTATIONS (forced rotations under load, default 8).
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { fillHistory } from './memory-home.js';
import { benchGroup, runMixedLoad, type SendSample } from './memory-load.js';
import { openStuckSubscribers, sendBurst, webUploadRounds } from './memory-parts.js';
import { startBenchDaemon } from './ping.js';
import { mib, rssMiB, RssSampler, slopeMiBPerMin } from './rss.js';
import { fmt, printTable, summarize } from './stats.js';

/**
 * "Retained" figures: RSS once the daemon collected all its garbage and gave unused heap back
 * (CCCC_DEBUG_MEMORY_GC: debug_snapshot runs the inspector's collectGarbage first; a plain gc()
 * leaves a grown heap in place). Sampled RSS (slopes, peaks) is the plain /proc figure.
 */
const DAEMON_ENV = { CCCC_DEVELOPER_MODE: '1', CCCC_DEBUG_MEMORY_GC: '1' };
const startDaemon = (home?: string) => startBenchDaemon(DAEMON_ENV, home ? { home } : {});
const envNumber = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

type Daemon = Awaited<ReturnType<typeof startBenchDaemon>>;

/** Retained RSS (MiB) and how the daemon splits it: V8 heap used/total, external (buffers), the rest (SQLite, code, malloc). */
async function retained(daemon: Daemon): Promise<{ rss: number; split: string }> {
  await sleep(1000);
  const m = (await new DaemonClient({ home: daemon.home }).call('debug_snapshot', {})).observability['memory'] as Record<string, number>;
  await sleep(300); // pages the GC freed leave RSS a moment later
  const rss = rssMiB(daemon.child.pid!);
  const M = (b: number) => (b / 1048576).toFixed(0);
  return {
    rss,
    split: `heap ${M(m['heap_used']!)}/${M(m['heap_total']!)}, external ${M(m['external']!)}, other ${(rss - (m['heap_total']! + m['external']!) / 1048576).toFixed(0)} MiB`,
  };
}

/**
 * With CCCC_BENCH_RSS_TRACE=<file>, the load's RSS samples (seconds, MiB) and the times its sealed
 * segments were written (seconds since the sampler started): what the range and slope rows sum up.
 */
function writeSamplesIfAsked(sampler: RssSampler, home: string): void {
  const file = process.env['CCCC_BENCH_RSS_TRACE'];
  if (!file) return;
  const rows = sampler.samples.map((s) => `rss ${(s.atMs / 1000).toFixed(1)} ${s.mib.toFixed(1)}`);
  const startedAt = Date.now() - (sampler.samples.at(-1)?.atMs ?? 0);
  for (const dir of findSegmentDirs(home)) {
    for (const name of readdirSync(dir)) rows.push(`segment ${((statSync(join(dir, name)).mtimeMs - startedAt) / 1000).toFixed(1)} ${name}`);
  }
  writeFileSync(file, rows.join('\n') + '\n');
}

function findSegmentDirs(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    if (entry.name === 'segments') found.push(path);
    else found.push(...findSegmentDirs(path));
  }
  return found;
}

async function sustainedLoad(minutes: number, rate: number): Promise<void> {
  const daemon = await startDaemon();
  try {
    const gid = await benchGroup(daemon.home, 'memory-load');
    const pid = daemon.child.pid!;
    // Baseline: the same daemon idle for 30 s before the load (after 5 s to settle).
    await sleep(5000);
    const idle = new RssSampler(pid, 5000);
    await sleep(30_000);
    idle.stop();
    const idleRange = Math.max(...idle.samples.map((s) => s.mib)) - Math.min(...idle.samples.map((s) => s.mib));
    const idleKept = await retained(daemon);

    const sampler = new RssSampler(pid, 5000);
    const durationMs = minutes * 60_000;
    const load = await runMixedLoad({ home: daemon.home, groupId: gid, durationMs, sendsPerSecond: rate });
    sampler.stop();
    writeSamplesIfAsked(sampler, daemon.home);
    const half = durationMs / 2;
    const first = sampler.between(0, half);
    const second = sampler.between(half, Infinity);
    const secondRange = Math.max(...second.map((s) => s.mib)) - Math.min(...second.map((s) => s.mib));
    const sends = summarize(load.sends.map((s) => s.ms));
    const kept = await retained(daemon);
    const at = (ms: number) => sampler.samples.reduce((best, s) => (Math.abs(s.atMs - ms) < Math.abs(best.atMs - ms) ? s : best)).mib;
    printTable(
      `memory: sustained mixed load, ${minutes} min (4 senders at ${rate} sends/s in all, 3 reading events_stream subscribers, a reconnecting one, Inbox / tail / history readers; RSS every 5 s)`,
      [
        { measure: 'idle daemon, 30 s before the load (baseline)', value: mib(idle.samples.at(-1)!.mib), note: `range ${idleRange.toFixed(1)} MiB; after a GC ${mib(idleKept.rss)}: ${idleKept.split}`, target: '' },
        { measure: 'RSS at start / half / end of the load', value: `${mib(at(0))} / ${mib(at(half))} / ${mib(sampler.samples.at(-1)!.mib)}`, note: `after a GC at the end ${mib(kept.rss)}: ${kept.split}`, target: '' },
        { measure: 'RSS slope, first half', value: `${slopeMiBPerMin(first).toFixed(2)} MiB/min`, note: `${first.length} samples`, target: '' },
        { measure: 'RSS slope, second half', value: `${slopeMiBPerMin(second).toFixed(2)} MiB/min`, note: `${second.length} samples`, target: '~0 (reference run: +4.8 MB/min)' },
        { measure: 'RSS range (max - min), second half', value: `${secondRange.toFixed(1)} MiB`, note: '', target: `flat: <= 20 MiB (+-10): ${secondRange <= 20 ? 'met' : 'NOT met'}` },
        {
          measure: 'load carried',
          value: `${Math.round(load.sends.length / (durationMs / 1000))} sends/s`,
          note: `${load.sends.length.toLocaleString('en-US')} sends (p50 ${fmt(sends.p50)}, p99 ${fmt(sends.p99)}), ${load.reads.toLocaleString('en-US')} reads, ${load.streamItems.toLocaleString('en-US')} stream items, ${load.errors} errors`,
          target: '',
        },
      ],
    );
  } finally {
    await daemon.stop();
  }
}

/** Start a daemon on `home`, read as a client would first, and report what it retains at each step. */
async function openAndRead(home: string, gid: string): Promise<{ started: number; read: number; firstReadMs: number; split: string }> {
  const daemon = await startDaemon(home);
  try {
    const started = (await retained(daemon)).rss;
    const client = new DaemonClient({ home });
    const t = performance.now();
    await client.call('inbox_peek', { group_id: gid, actor_id: 'peer2', limit: 20 });
    const firstReadMs = performance.now() - t;
    await client.call('inbox_peek', { group_id: gid, actor_id: 'peer1', limit: 20 });
    await client.call('message_history', { group_id: gid, actor_id: 'peer1', limit: 50 });
    await client.call('ledger_tail', { group_id: gid, limit: 50, with_read_status: true });
    const stream = await client.openEventsStream({ group_id: gid });
    await client.call('send', { group_id: gid, text: 'after restart', to: ['peer1'], message_mode: 'mail' });
    stream.close();
    const read = await retained(daemon);
    return { started, read: read.rss, firstReadMs, split: read.split };
  } finally {
    await daemon.stop();
  }
}

async function coldOpen(sizes: number[]): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'cccc-bench-memory-home-'));
  try {
    const creator = await startDaemon(home);
    const gid = await benchGroup(home, 'history');
    await creator.stop();
    const base = await openAndRead(home, gid);
    const rows: Array<Record<string, string>> = [
      { events: '0 (empty home, baseline)', build: '', 'after start': mib(base.started), 'after first reads': mib(base.read), 'gap to baseline': '', 'first read': fmt(base.firstReadMs), 'daemon split': base.split },
    ];
    let have = 0;
    for (const n of sizes) {
      const { seconds } = await fillHistory(home, gid, have, n);
      have = n;
      const r = await openAndRead(home, gid);
      rows.push({
        events: n.toLocaleString('en-US'),
        build: `${seconds.toFixed(0)} s`,
        'after start': mib(r.started),
        'after first reads': mib(r.read),
        'gap to baseline': `+${(r.read - base.read).toFixed(1)} MiB`,
        'first read': fmt(r.firstReadMs),
        'daemon split': r.split,
      });
    }
    printTable(
      'memory: a fresh daemon opening a long history (retained RSS: after the daemon collected all garbage; written through the ledger library, appendMany x 1,000, rotated at 5 MB; first reads: Inbox peeks, history, tail, a stream, a send). Target: the gap does not grow with the events',
      rows,
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Sends whose call overlapped [from, to] (absolute performance.now() times). */
const overlapping = (sends: readonly SendSample[], t0: number, from: number, to: number) => sends.filter((s) => t0 + s.atMs <= to && t0 + s.atMs + s.ms >= from);

async function rotation(): Promise<void> {
  const daemon = await startDaemon();
  // 8 rotations: ~1,000 sends overlap them, so their p99 rests on ~10 samples, not 5.
  const ROTATIONS = envNumber('CCCC_BENCH_ROTATIONS', 8);
  const PERIOD_MS = 15_000;
  try {
    const gid = await benchGroup(daemon.home, 'memory-rotation');
    const client = new DaemonClient({ home: daemon.home, timeoutMs: 120_000 });
    // A rotation now stamps the manifest, so the automatic one (5 MB, at most every 300 s) stays out.
    await client.call('ledger_compact', { group_id: gid, force: true, reason: 'bench start' });
    const sampler = new RssSampler(daemon.child.pid!, 250);
    const samplerT0 = performance.now();
    const loading = runMixedLoad({ home: daemon.home, groupId: gid, durationMs: PERIOD_MS * (ROTATIONS + 1), sendsPerSecond: 200, textBytes: 2000 });
    const rotations: Array<{ from: number; to: number; sealed: number; compressed: number }> = [];
    const loadT0 = performance.now();
    for (let k = 1; k <= ROTATIONS; k++) {
      await sleep(loadT0 + k * PERIOD_MS - performance.now());
      const from = performance.now();
      const report = (await client.call('ledger_compact', { group_id: gid, force: true, reason: 'bench' })) as { segment?: { size_bytes: number }; compressed?: number[] };
      rotations.push({ from, to: performance.now(), sealed: report.segment?.size_bytes ?? 0, compressed: report.compressed?.length ?? 0 });
    }
    const load = await loading;
    sampler.stop();
    const windows = rotations.map((r) => ({ from: r.from, to: r.to + 500 }));
    const inRotation = windows.flatMap((w) => overlapping(load.sends, load.t0, w.from, w.to));
    const steady = load.sends.filter((s) => windows.every((w) => overlapping([s], load.t0, w.from - 2000, w.to + 2000).length === 0));
    const st = summarize(steady.map((s) => s.ms));
    const rot = summarize(inRotation.map((s) => s.ms));
    // The same windows moved half a period later, where no rotation runs: how far this machine's
    // own noise moves a p99 of ~1,000 sends against the steady one, in the same run.
    const controlWindows = windows.map((w) => ({ from: w.from + PERIOD_MS / 2, to: w.to + PERIOD_MS / 2 })).filter((w) => w.to < load.t0 + load.durationMs);
    const control = summarize(controlWindows.flatMap((w) => overlapping(load.sends, load.t0, w.from, w.to)).map((s) => s.ms));
    const slowPerWindow = windows.map((w) => overlapping(load.sends, load.t0, w.from, w.to).filter((s) => s.ms > 2 * st.p99).length);
    const rssAt = (t: number) => sampler.between(t - samplerT0 - 1000, t - samplerT0);
    const rises = rotations.map((r) => {
      const before = rssAt(r.from).at(-1)?.mib ?? NaN;
      const peak = Math.max(...sampler.between(r.from - samplerT0, r.to - samplerT0 + 1000).map((s) => s.mib));
      return peak - before;
    });
    printTable(`memory: ledger rotation under load (200 sends/s of 2 KB, readers and subscribers as above; ${ROTATIONS} forced rotations by ledger_compact from another client, every ${PERIOD_MS / 1000} s)`, [
      { measure: 'send, steady (> 2 s from any rotation; baseline)', n: String(st.n), p50: fmt(st.p50), p99: fmt(st.p99), note: '' },
      {
        measure: 'send overlapping a rotation (+0.5 s)',
        n: String(rot.n),
        p50: fmt(rot.p50),
        p99: fmt(rot.p99),
        note: `p99 ratio ${(rot.p99 / st.p99).toFixed(2)}x (target <= 2x: ${rot.p99 <= 2 * st.p99 ? 'met' : 'NOT met'}; reference run: 160 ms); sends over 2x the steady p99 per window: ${slowPerWindow.join(' / ')}`,
      },
      {
        measure: 'send in the same windows half a period later (control: no rotation)',
        n: String(control.n),
        p50: fmt(control.p50),
        p99: fmt(control.p99),
        note: `p99 ratio ${(control.p99 / st.p99).toFixed(2)}x: this run's noise for a window p99`,
      },
      {
        measure: 'ledger_compact calls',
        n: String(rotations.length),
        p50: fmt(summarize(rotations.map((r) => r.to - r.from)).p50),
        p99: '',
        note: `sealed ${rotations.map((r) => (r.sealed / 1e6).toFixed(1)).join(' / ')} MB; gzipped ${rotations.map((r) => r.compressed).join(' / ')} older segments`,
      },
      {
        measure: 'RSS rise across each rotation (peak - before)',
        n: String(rotations.length),
        p50: '',
        p99: '',
        note: `${rises.map((r) => r.toFixed(1)).join(' / ')} MiB; RSS ${mib(sampler.samples[0]!.mib)} -> ${mib(sampler.samples.at(-1)!.mib)} over the run (reference: +105 MB per rotation)`,
      },
    ]);
  } finally {
    await daemon.stop();
  }
}

async function stuck(): Promise<void> {
  const SUBSCRIBERS = 20;
  const SENDS = 2000;
  const rows: Array<Record<string, string>> = [];
  const runs: Array<{ before: number; peak: number; after: number }> = [];
  for (const subscribers of [0, SUBSCRIBERS]) {
    const daemon = await startDaemon();
    try {
      const gid = await benchGroup(daemon.home, 'memory-stuck');
      const stuckOnes = subscribers > 0 ? await openStuckSubscribers(daemon.endpoint.path, gid, subscribers) : [];
      await sleep(1000);
      const before = (await retained(daemon)).rss;
      const sampler = new RssSampler(daemon.child.pid!, 100);
      const seconds = await sendBurst(daemon.home, gid, SENDS, 16 * 1024);
      const peak = sampler.peak;
      for (const s of stuckOnes) s.destroy();
      sampler.stop();
      const after = await retained(daemon);
      runs.push({ before, peak, after: after.rss });
      rows.push({
        case: subscribers > 0 ? `${subscribers} events_stream subscribers that never read` : 'no subscribers (baseline)',
        before: mib(before),
        peak: `${mib(peak)} (+${(peak - before).toFixed(1)})`,
        'after closing them (retained)': `${mib(after.rss)} (+${(after.rss - before).toFixed(1)})`,
        sends: `${SENDS} x 16 KB in ${seconds.toFixed(1)} s`,
        'split after': after.split,
      });
    } finally {
      await daemon.stop();
    }
  }
  printTable('memory: stuck events_stream subscribers (before / after: retained RSS, after the daemon collected all garbage; peak: sampled every 100 ms)', rows);
  const [base, stuckRun] = runs as [(typeof runs)[0], (typeof runs)[0]];
  const added = stuckRun.peak - stuckRun.before - (base.peak - base.before);
  const kept = stuckRun.after - stuckRun.before - (base.after - base.before);
  console.log(
    `stuck subscribers add ${added.toFixed(1)} MiB at the peak over the baseline run (target <= 40 MB: ${added <= 40 ? 'met' : 'NOT met'}); ${kept.toFixed(1)} MiB of it retained after they closed (target: released, ~0)`,
  );
}

async function web(): Promise<void> {
  const r = await webUploadRounds({ rounds: 6, perRound: 10, files: 2, fileBytes: 1024 * 1024 });
  printTable('memory: Web process RSS over uploads (send_upload, 2 x 1 MiB files each; baseline: the same number of JSON sends first)', r);
}

export async function benchMemory(): Promise<void> {
  const parts = (process.env['CCCC_BENCH_MEMORY_PARTS'] ?? 'load,cold,rotation,stuck,web').split(',').map((p) => p.trim());
  const minutes = envNumber('CCCC_BENCH_MEMORY_MINUTES', 10);
  const events = envNumber('CCCC_BENCH_MEMORY_EVENTS', 192_000);
  const rate = envNumber('CCCC_BENCH_MEMORY_RATE', 200);
  // CCCC_BENCH_MEMORY_SIZES, e.g. "50000,100000,200000": the cold-open rows (default: 20k, half, all events).
  const sizes = (process.env['CCCC_BENCH_MEMORY_SIZES'] ?? '').split(',').map(Number).filter((n) => Number.isFinite(n) && n > 0);
  const coldSizes = sizes.length > 0 ? sizes : [Math.min(20_000, events), Math.round(events / 2), events];
  if (parts.includes('cold')) await coldOpen([...new Set(coldSizes)].sort((a, b) => a - b));
  if (parts.includes('rotation')) await rotation();
  if (parts.includes('stuck')) await stuck();
  if (parts.includes('web')) await web();
  if (parts.includes('load')) await sustainedLoad(minutes, rate);
}
