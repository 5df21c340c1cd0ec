// memory-search section (issue 28): a group's memory (@cccc/memory) at 1k / 10k / 100k chunks
// in daily files of 100 entries. Search p50/p99 through the library (FTS5 + ranking, with and
// without the scan every op does first), beside a baseline in the same run: a plain SQLite
// table of the same chunks searched with LIKE (every row read, matches counted and ordered).
// Also the time to rebuild the index from the files and a no-change scan.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { GroupMemory } from '@cccc/memory';
import { fmt, printTable, summarize } from './stats.js';

const SIZES = [1_000, 10_000, 100_000];
const PER_FILE = 100;
const VOCAB = 20_000;
const QUERIES = 200;

/** Deterministic PRNG (mulberry32) so every run indexes the same corpus. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const word = (i: number) => `w${i.toString(36)}x`;

/** Zipf-like word choice: a few words are common, most are rare, as in prose. */
function zipf(r: () => number): number {
  return Math.min(VOCAB - 1, Math.floor(Math.exp(r() * Math.log(VOCAB))) - 1);
}

function entry(r: () => number, n: number): string {
  const words = Array.from({ length: 30 }, () => word(zipf(r))).join(' ');
  return `## mem_${n.toString(16).padStart(12, '0')} [daily_note] 2026-11-30T08:00:00Z\n\n${words}.\n`;
}

/** Wall time per call, and the process's CPU time per call (user + system), in ms. */
function timed(n: number, fn: (i: number) => unknown, cpu: number[] = []): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    fn(i);
    out.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  return out;
}

async function timedAsync(n: number, fn: (i: number) => Promise<unknown>, cpu: number[] = []): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  return out;
}

export async function benchMemorySearch(): Promise<void> {
  const rows: Array<Record<string, string | number>> = [];
  for (const size of SIZES) {
    const dir = mkdtempSync(join(tmpdir(), 'cccc-bench-mem-'));
    const groupDir = join(dir, 'g_000000000001');
    const daily = join(groupDir, 'state', 'memory', 'daily');
    mkdirSync(daily, { recursive: true });
    const r = rng(28);
    const chunks: string[] = [];
    for (let f = 0; f < size / PER_FILE; f++) {
      const body: string[] = [];
      for (let e = 0; e < PER_FILE; e++) {
        const text = entry(r, f * PER_FILE + e);
        body.push(text);
        chunks.push(text);
      }
      const day = new Date(Date.UTC(2020, 0, 1) + f * 86_400_000).toISOString().slice(0, 10);
      writeFileSync(join(daily, `${day}__bench.md`), `# Daily Memory (bench) - ${day}\n\n${body.join('\n')}`);
    }
    const memory = new GroupMemory({ groupDir, title: () => 'bench', now: () => new Date('2026-11-30T08:00:00Z') });
    try {
      let t = performance.now();
      const sync = await memory.indexSync('rebuild');
      const rebuildMs = performance.now() - t;
      t = performance.now();
      await memory.indexSync('scan');
      const scanMs = performance.now() - t;

      // Two words per query, Zipf ranks 20..420: each word is in ~0.75–14 % of the chunks, so a
      // query's OR matches and scores hundreds to thousands of chunks (no cherry-picked rare words).
      const q = rng(7);
      const queries = Array.from({ length: QUERIES }, () => `${word(20 + Math.floor(q() * 400))} ${word(20 + Math.floor(q() * 400))}`);
      for (const query of queries.slice(0, 20)) await memory.search({ query }, { scan: false }); // warm
      let hitCount = 0;
      const ftsCpu: number[] = [];
      const fts = await timedAsync(QUERIES, async (i) => {
        hitCount += (await memory.search({ query: queries[i]!, max_results: 5 }, { scan: false })).count;
      }, ftsCpu);
      const ftsScan = await timedAsync(QUERIES, (i) => memory.indexSync('scan').then(() => memory.search({ query: queries[i]!, max_results: 5 }, { scan: false })));

      // Baseline: the same chunks in a plain table, LIKE per word, ranked by words matched.
      const plain = new Database(join(dir, 'plain.sqlite'));
      plain.exec('CREATE TABLE chunks (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
      const ins = plain.prepare('INSERT INTO chunks (text) VALUES (?)');
      plain.transaction(() => chunks.forEach((c) => ins.run(c)))();
      const like = plain.prepare(
        'SELECT id, (text LIKE ?) + (text LIKE ?) AS m FROM chunks WHERE m > 0 ORDER BY m DESC LIMIT 5',
      );
      const split = queries.map((s) => s.split(' ').map((w) => `%${w}%`));
      for (const [a, b] of split.slice(0, 20)) like.all(a, b);
      const baseCpu: number[] = [];
      const base = timed(QUERIES, (i) => like.all(split[i]![0], split[i]![1]), baseCpu);
      plain.close();

      const s = summarize(fts);
      const ss = summarize(ftsScan);
      const b = summarize(base);
      rows.push({
        chunks: sync.indexed_chunks,
        files: sync.indexed_files,
        'search p50': fmt(s.p50),
        'search p99': fmt(s.p99),
        'search CPU p50': fmt(summarize(ftsCpu).p50),
        'scan+search p50': fmt(ss.p50),
        'LIKE baseline p50': fmt(b.p50),
        'LIKE CPU p50': fmt(summarize(baseCpu).p50),
        'hits/query': (hitCount / QUERIES).toFixed(1),
        rebuild: `${(rebuildMs / 1000).toFixed(2)} s`,
        'no-change scan': fmt(scanMs),
      });
    } finally {
      memory.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  printTable('memory-search: @cccc/memory FTS5 search vs a plain SQLite LIKE scan (same chunks, same run)', rows);
  console.log('CPU columns: this process\'s user+system time per query (less sensitive than wall time to other load on the machine).');
  console.log('target: search p50 ≤ 5 ms at 100k chunks. "scan+search" forces the stat-per-file scan a search does when the last scan is over 1 s old.');
}
