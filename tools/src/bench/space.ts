// space section (issue 29): the Group Space's embedded local provider (@cccc/group-space).
// Ingest throughput through the whole durable path (GroupSpace.ingest: job row written running,
// provider add, settle; WAL + synchronous=FULL) and straight into the provider, then query p50
// at 10k sources through GroupSpace.query (FTS5 + cited answer), beside a baseline in the same
// run: a naive scan of the same 10k texts in memory (every text tokenized per query, ranked by
// terms matched).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GroupSpace, LocalSpaceProvider, NotebookLmControlPlane, queryTerms, tokens } from '@cccc/group-space';
import { fmt, printTable, summarize } from './stats.js';

const SOURCES = 10_000;
const DURABLE = 2_000; // of them through the durable job path; the rest straight into the provider
const VOCAB = 20_000;
const QUERIES = 200;

function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const word = (i: number) => `w${i.toString(36)}x`;
const zipf = (r: () => number) => Math.min(VOCAB - 1, Math.floor(Math.exp(r() * Math.log(VOCAB))) - 1);
const text = (r: () => number) => `${Array.from({ length: 60 }, () => word(zipf(r))).join(' ')}.`;

export async function benchSpace(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'cccc-bench-space-'));
  const stateDir = join(home, 'space');
  const provider = new LocalSpaceProvider(join(stateDir, 'local', 'provider.sqlite3'));
  const space = new GroupSpace({ groupId: 'g_bench', stateDir, dailyDir: join(home, 'daily'), spaceRoot: () => undefined, notebooklm: new NotebookLmControlPlane(home, {}), localProvider: provider });
  try {
    const r = rng(29);
    const texts = Array.from({ length: SOURCES }, () => text(r));
    const bound = await space.bind({ lane: 'work', provider: 'local' });
    const spaceId = String(bound.bindings.work.remote_space_id);

    let t = performance.now();
    for (let i = 0; i < DURABLE; i++) await space.ingest({ lane: 'work', idempotency_key: `b${i}`, payload: { source_type: 'text', title: `source ${i}`, content: texts[i]! } });
    const durableMs = performance.now() - t;
    t = performance.now();
    for (let i = DURABLE; i < SOURCES; i++) await provider.addSource(spaceId, { title: `source ${i}`, content: texts[i]!, source_type: 'text' }, `direct-${i}`);
    const directMs = performance.now() - t;
    t = performance.now();
    for (let i = 0; i < 200; i++) await space.ingest({ lane: 'work', idempotency_key: `b${i}`, payload: { content: 'deduped' } });
    const dedupeMs = performance.now() - t;

    const q = rng(7);
    const queries = Array.from({ length: QUERIES }, () => `${word(20 + Math.floor(q() * 400))} ${word(20 + Math.floor(q() * 400))}`);
    for (const query of queries.slice(0, 20)) await space.query({ lane: 'work', query });
    const lat: number[] = [];
    let refs = 0;
    for (const query of queries) {
      const s = performance.now();
      refs += (await space.query({ lane: 'work', query })).reference_count;
      lat.push(performance.now() - s);
    }

    // Baseline: the same texts in memory, each tokenized and scored per query.
    const naive: number[] = [];
    for (const query of queries) {
      const s = performance.now();
      const terms = queryTerms(query);
      const scored: Array<[number, number]> = [];
      for (let i = 0; i < texts.length; i++) {
        const have = new Set(tokens(texts[i]!));
        const m = terms.filter((x) => have.has(x)).length;
        if (m > 0) scored.push([m, i]);
      }
      scored.sort((a, b) => b[0] - a[0]);
      scored.slice(0, 5);
      naive.push(performance.now() - s);
    }

    const s = summarize(lat);
    const n = summarize(naive);
    printTable('space: local provider (SQLite FTS5) at 10k sources vs a naive in-memory scan (same texts, same run)', [
      {
        sources: SOURCES,
        'query p50': fmt(s.p50),
        'query p99': fmt(s.p99),
        'naive scan p50': fmt(n.p50),
        'naive scan p99': fmt(n.p99),
        'refs/query': (refs / QUERIES).toFixed(1),
        'ingest (durable job) /s': Math.round(DURABLE / (durableMs / 1000)),
        'ingest (provider only) /s': Math.round((SOURCES - DURABLE) / (directMs / 1000)),
        'dedupe hit /s': Math.round(200 / (dedupeMs / 1000)),
      },
    ]);
    console.log('query = GroupSpace.query end to end (FTS5 match, best sentence per source, citations, source counts). durable ingest = job row written running + provider add + settle, each a synchronous=FULL transaction.');
  } finally {
    space.close();
    rmSync(home, { recursive: true, force: true });
  }
}
