// Rotation section (issue 20, point 6), in process: the ledger library as the daemon runs it, on
// one event loop, without the IPC and client processes whose scheduling noise on a shared
// machine swamps a p99 of a few hundred sends. Paced appends (200/s of 2 KB over 4 writers),
// a consuming Inbox reader (a mail.read, a marker and a cursor per read) and an event-loop lag
// probe run throughout; forced rotations (each seals ~3 MB and gzips the previous segment) come
// every few seconds. Printed: append latency and event-loop lag overlapping a rotation beside
// the same figures away from any rotation, measured in the same run, and their ratio.
// `npm run bench -- rotation` (CCCC_BENCH_ROTATIONS, default 8).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openGroupLedger } from '@cccc/ledger';
import { fmt, printTable, summarize } from './stats.js';

const G = 'g_benchrotate1';
const TEXT = 'please review the migration plan and reply with concerns about the rollout order; '.repeat(25).slice(0, 2000);

interface Sample {
  readonly at: number;
  readonly ms: number;
}

export async function benchRotation(): Promise<void> {
  const rotations = Number(process.env['CCCC_BENCH_ROTATIONS']) > 0 ? Number(process.env['CCCC_BENCH_ROTATIONS']) : 8;
  const periodMs = 8000;
  const rate = 200;
  const writers = 4;
  const home = mkdtempSync(join(tmpdir(), 'cccc-bench-rotation-'));
  const store = await openGroupLedger({ home, groupId: G, compactMinIntervalMs: 0, roleOf: (a) => (a === 'lead' ? 'foreman' : 'peer') });
  try {
    await store.append({ kind: 'actor.add', by: 'user', data: { actor: { id: 'peer1', created_at: '2026-11-30T08:00:00.000000Z' } } });
    // A history to rotate over: one sealed segment before the measured part.
    for (let i = 0; i < 3000; i += 100) {
      await store.appendMany(Array.from({ length: 100 }, (_, j) => ({ kind: 'chat.message', by: 'user', data: { text: `${i + j} ${TEXT}`, message_mode: 'mail', to: ['peer1'] } })));
    }
    await store.compact({ force: true, reason: 'bench start' });

    const appends: Sample[] = [];
    const consumes: Sample[] = [];
    const lags: Sample[] = [];
    let running = true;
    const t0 = performance.now();

    const writer = async (w: number) => {
      const interval = (1000 * writers) / rate;
      let next = performance.now() + (interval * w) / writers;
      for (let i = 0; running; i++) {
        const wait = next - performance.now();
        if (wait > 0) await sleep(wait);
        next = Math.max(next + interval, performance.now() - interval);
        const t = performance.now();
        await store.append({ kind: 'chat.message', by: 'user', data: { text: `${w}.${i} ${TEXT}`, message_mode: 'mail', to: ['peer1'] } });
        appends.push({ at: t, ms: performance.now() - t });
      }
    };
    const consumer = async () => {
      while (running) {
        const t = performance.now();
        await store.inboxConsume({ actorId: 'peer1', limit: 20 });
        consumes.push({ at: t, ms: performance.now() - t });
        await sleep(50);
      }
    };
    // Event-loop lag: how late a 1 ms timer fires.
    const probe = async () => {
      while (running) {
        const t = performance.now();
        await sleep(1);
        lags.push({ at: t, ms: performance.now() - t - 1 });
      }
    };

    const load = Promise.all([...Array.from({ length: writers }, (_, w) => writer(w)), consumer(), probe()]);
    const windows: Array<{ from: number; to: number; ms: number; sealed: number }> = [];
    for (let k = 1; k <= rotations; k++) {
      await sleep(t0 + k * periodMs - performance.now());
      const from = performance.now();
      const report = await store.compact({ force: true, reason: 'bench' });
      const to = performance.now();
      windows.push({ from, to: to + 500, ms: to - from, sealed: report.segment?.size_bytes ?? 0 });
    }
    await sleep(2000);
    running = false;
    await load;

    const near = (s: Sample, margin: number) => windows.some((w) => s.at + s.ms >= w.from - margin && s.at <= w.to + margin);
    const split = (xs: Sample[]) => ({ during: xs.filter((s) => near(s, 0)).map((s) => s.ms), steady: xs.filter((s) => !near(s, 1000)).map((s) => s.ms) });
    const rows: Array<Record<string, string>> = [];
    const row = (what: string, xs: Sample[]) => {
      const { during, steady } = split(xs);
      const st = summarize(steady);
      const du = summarize(during);
      rows.push({ measure: `${what}, steady (> 1 s from any rotation; baseline)`, n: String(st.n), p50: fmt(st.p50), p99: fmt(st.p99), max: fmt(Math.max(...steady)), ratio: '' });
      rows.push({ measure: `${what}, overlapping a rotation (+0.5 s)`, n: String(du.n), p50: fmt(du.p50), p99: fmt(du.p99), max: fmt(Math.max(...during)), ratio: `p99 ${(du.p99 / st.p99).toFixed(2)}x` });
    };
    row('append', appends);
    row('Inbox consume', consumes);
    row('event-loop lag (1 ms timer)', lags);
    rows.push({
      measure: `rotations (compact: seal + gzip of the previous segment)`,
      n: String(windows.length),
      p50: fmt(summarize(windows.map((w) => w.ms)).p50),
      p99: '',
      max: fmt(Math.max(...windows.map((w) => w.ms))),
      ratio: `sealed ~${(summarize(windows.map((w) => w.sealed)).p50 / 1e6).toFixed(1)} MB each`,
    });
    printTable(
      `ledger rotation, in process: ${rate} appends/s of 2 KB (${writers} writers), a consuming Inbox reader every 50 ms, ${rotations} forced rotations every ${periodMs / 1000} s (target: append p99 during <= 2x steady)`,
      rows,
    );
    const { during, steady } = split(appends);
    const ratio = summarize(during).p99 / summarize(steady).p99;
    console.log(`append p99 during a rotation / steady: ${ratio.toFixed(2)}x (target <= 2x: ${ratio <= 2 ? 'met' : 'NOT met'})`);
  } finally {
    await store.close();
    rmSync(home, { recursive: true, force: true });
  }
}
