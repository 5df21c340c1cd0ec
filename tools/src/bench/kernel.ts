// Kernel section (issue 4): messaging over the real daemon process, beside baselines measured
// in the same run: Mail send latency vs a bare append+fsync, concurrent send throughput,
// events_stream delivery latency, inbox_peek / message_history at 5k+ events, daemon RSS.
import { readFileSync } from 'node:fs';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bareAppendFsyncSamples } from './fsync-baseline.js';
import { bareGroupCommit } from './ledger.js';
import { openLineConnection } from './line-connection.js';
import { startBenchDaemon, startEchoServer } from './ping.js';
import type { RawEndpoint } from './raw-call.js';
import { rssMiB } from './rss.js';
import { fmt, printTable, summarize } from './stats.js';

async function timed(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return out;
}

export async function benchKernel(): Promise<void> {
  // Developer mode: debug_snapshot reports the group's group commit (persistentThroughput).
  const daemon = await startBenchDaemon({ CCCC_DEVELOPER_MODE: '1' });
  // The floor of any server that acknowledges a durable append over a unix socket on this
  // machine: lines group-committed with write + fdatasync and echoed, nothing else.
  const durableEcho = await startEchoServer({ durable: true });
  const client = new DaemonClient({ home: daemon.home });
  try {
    const gid = (await client.call('group_create', { title: 'bench' })).group_id;
    for (const id of ['lead', 'peer1', 'peer2']) await client.call('actor_add', { group_id: gid, actor_id: id, runtime: 'custom', command: ['sh'] });
    const text = 'please review the migration plan and reply with concerns about the rollout order';

    // Warm up both paths.
    await timed(50, () => client.call('send', { group_id: gid, text, to: ['peer1'], message_mode: 'mail' }));
    bareAppendFsyncSamples(50);

    const seq = summarize(await timed(1000, () => client.call('send', { group_id: gid, text, to: ['peer1'], message_mode: 'mail' })));
    const bare = summarize(bareAppendFsyncSamples(1000));
    // The same one after another on one long-lived connection (the Web's and SDK sessions' way),
    // beside the durable echo server answering the same line the same way.
    const sendLine = JSON.stringify({ v: 1, op: 'send', args: { group_id: gid, text, to: ['peer1'], message_mode: 'mail' } }) + '\n';
    const seqLong = summarize(await sequentialOnOneConnection(daemon.endpoint, sendLine, 1000));
    const seqFloor = summarize(await sequentialOnOneConnection(durableEcho.endpoint, sendLine, 1000));

    const clients = 8;
    const perClient = 500;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: clients }, (_, c) =>
        (async () => {
          const own = new DaemonClient({ home: daemon.home });
          for (let i = 0; i < perClient; i++) await own.call('send', { group_id: gid, text, to: ['peer2'], message_mode: 'mail', by: c % 2 ? 'lead' : 'user' });
        })(),
      ),
    );
    const concurrentSeconds = (performance.now() - t0) / 1000;
    const sendsPerSecond = (clients * perClient) / concurrentSeconds;

    // The same 8 clients on long-lived connections, alternated with the disk's ceiling: a bare
    // group-commit loop (write + fdatasync, no daemon) with 8 writers. fsync latency drifts
    // within minutes here, so each side is the median of short runs taken in turns.
    const persistent = await persistentThroughput(daemon.endpoint, durableEcho.endpoint, gid, text, clients, () => ledgerCommits(client, gid));

    // events_stream: time from issuing a send to the subscriber holding the event.
    const stream = await client.openEventsStream({ group_id: gid, by: 'peer1', kinds: ['chat.message'] });
    const iterator = stream[Symbol.asyncIterator]();
    const streamSamples: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t = performance.now();
      const sent = client.call('send', { group_id: gid, text: `stream ${i}`, to: ['peer1'], message_mode: 'send' });
      for (;;) {
        const next = await iterator.next();
        if (next.done) throw new Error('stream ended');
        if (next.value.t === 'event') break;
      }
      streamSamples.push(performance.now() - t);
      await sent;
    }
    stream.close();
    const streamStats = summarize(streamSamples);

    const eventCount = readFileSync(`${daemon.home}/groups/${gid}/ledger.jsonl`, 'utf8').split('\n').length - 1;
    const peek = summarize(await timed(500, () => client.call('inbox_peek', { group_id: gid, actor_id: 'peer1', limit: 20 })));
    const history = summarize(await timed(500, () => client.call('message_history', { group_id: gid, actor_id: 'peer1', limit: 20 })));
    const ping = summarize(await timed(500, () => client.call('ping', {})));
    const rss = rssMiB(daemon.child.pid!);

    printTable(`kernel over IPC (real daemon process, fresh connection per call; ${eventCount.toLocaleString('en-US')} events in the group at the read step)`, [
      { measure: 'bare append+fsync of one line (baseline)', p50: fmt(bare.p50), p99: fmt(bare.p99), target: '' },
      { measure: 'Mail send, sequential', p50: fmt(seq.p50), p99: fmt(seq.p99), target: `<= 10x baseline: ${(seq.p50 / bare.p50).toFixed(1)}x (reference ~55x)` },
      {
        measure: 'Mail send, sequential, one long-lived connection',
        p50: fmt(seqLong.p50),
        p99: fmt(seqLong.p99),
        target: `<= 3x baseline: ${(seqLong.p50 / bare.p50).toFixed(1)}x; ${(seqLong.p50 / seqFloor.p50).toFixed(2)}x the durable echo floor`,
      },
      { measure: 'durable echo server, same line, one connection (IPC + fsync floor)', p50: fmt(seqFloor.p50), p99: fmt(seqFloor.p99), target: `${(seqFloor.p50 / bare.p50).toFixed(1)}x baseline` },
      { measure: `${clients} concurrent clients x ${perClient} Mail sends`, p50: `${Math.round(sendsPerSecond).toLocaleString('en-US')} sends/s`, p99: '', target: '>= 2,000/s (reference ~155/s)' },
      {
        measure: `${clients} persistent connections x ${PERSISTENT_PER_CLIENT} Mail sends (median of ${PERSISTENT_ROUNDS})`,
        p50: `${Math.round(persistent.rate).toLocaleString('en-US')} sends/s`,
        p99: '',
        target: `>= 5,000/s and >= 0.35x ceiling: ${(persistent.rate / persistent.ceiling).toFixed(2)}x (runs ${persistent.runs})`,
      },
      {
        measure: '  the daemon\'s group commit in those rounds (debug_snapshot)',
        p50: `${persistent.commits.perBatch.toFixed(1)} sends/fsync`,
        p99: '',
        target: `${persistent.commits.syncMs.toFixed(3)} ms in each fdatasync, ${persistent.commits.serialMs.toFixed(3)} ms between two`,
      },
      { measure: 'bare group commit, 8 writers (disk ceiling)', p50: `${Math.round(persistent.ceiling).toLocaleString('en-US')} appends/s`, p99: '', target: `${persistent.ceilingPerBatch.toFixed(1)} appends/fsync, ${persistent.ceilingSyncMs.toFixed(3)} ms in each fdatasync` },
      {
        measure: `durable echo server, ${clients} persistent connections (IPC + group commit floor)`,
        p50: `${Math.round(persistent.floor).toLocaleString('en-US')} lines/s`,
        p99: '',
        target: `${(persistent.floor / persistent.ceiling).toFixed(2)}x ceiling; daemon ${(persistent.rate / persistent.floor).toFixed(2)}x this floor`,
      },
      { measure: 'events_stream: send issued -> subscriber has it', p50: fmt(streamStats.p50), p99: fmt(streamStats.p99), target: '<= 2 ms (reference 6.5 ms)' },
      { measure: 'ping (connection cost floor)', p50: fmt(ping.p50), p99: fmt(ping.p99), target: '' },
      { measure: 'inbox_peek (limit 20)', p50: fmt(peek.p50), p99: fmt(peek.p99), target: '<= 2 ms (reference 7.8 ms at 5k)' },
      { measure: 'message_history (limit 20)', p50: fmt(history.p50), p99: fmt(history.p99), target: '<= 2 ms (reference 31.7 ms at 5k)' },
      { measure: 'daemon RSS after the run', p50: `${rss.toFixed(1)} MiB`, p99: '', target: '' },
    ]);
  } finally {
    await daemon.stop();
    await durableEcho.stop();
  }
}

/** `n` copies of `line` sent one after another on one connection; the latency of each. */
async function sequentialOnOneConnection(endpoint: RawEndpoint, line: string, n: number): Promise<number[]> {
  const conn = await openLineConnection(endpoint);
  try {
    for (let i = 0; i < 50; i++) await conn.call(line);
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const answer = await conn.call(line);
      out.push(performance.now() - t);
      if (answer.startsWith('{"v":1,"ok":false')) throw new Error(`refused: ${answer.slice(0, 200)}`);
    }
    return out;
  } finally {
    conn.close();
  }
}

type LedgerCommits = Record<'batches' | 'appends' | 'sync_ms' | 'serial_ms', number>;

/** The group's group commit counters so far (debug_snapshot, developer mode). */
async function ledgerCommits(client: DaemonClient, gid: string): Promise<LedgerCommits> {
  const commits = (await client.call('debug_snapshot', { group_id: gid })).observability['ledger_commits'] as LedgerCommits | undefined;
  if (!commits) throw new Error(`debug_snapshot reports no ledger_commits for ${gid}`);
  return commits;
}

const PERSISTENT_ROUNDS = 5;
const PERSISTENT_PER_CLIENT = 1000;

/**
 * `clients` long-lived connections sending Mail, each awaiting its acknowledgement; rounds
 * alternate with the bare ceiling and with the same clients against the durable echo server.
 */
async function persistentThroughput(endpoint: RawEndpoint, floorEndpoint: RawEndpoint, gid: string, text: string, clients: number, commits: () => Promise<LedgerCommits>) {
  const dir = mkdtempSync(join(tmpdir(), 'cccc-bench-gc-'));
  const bytes = Buffer.from(JSON.stringify({ v: 1, id: 'a'.repeat(32), ts: '2026-11-30T08:00:00.000000Z', kind: 'chat.message', group_id: gid, scope_key: '', by: 'user', data: { text, to: ['peer2'] } }) + '\n');
  const round = async (perClient: number, target = endpoint) => {
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        const conn = await openLineConnection(target);
        const line = JSON.stringify({ v: 1, op: 'send', args: { group_id: gid, text, to: ['peer2'], message_mode: 'mail', by: c % 2 ? 'lead' : 'user' } }) + '\n';
        try {
          for (let i = 0; i < perClient; i++) {
            const answer = await conn.call(line);
            if (target === endpoint && !answer.includes('"ok":true')) throw new Error(`send refused: ${answer.slice(0, 200)}`);
          }
        } finally {
          conn.close();
        }
      }),
    );
    return (clients * perClient) / ((performance.now() - t0) / 1000);
  };
  try {
    await round(200); // warm-up: the daemon's JIT
    const rates: number[] = [];
    const ceilings: number[] = [];
    const ceilingSyncMs: number[] = [];
    const ceilingPerBatch: number[] = [];
    const floors: number[] = [];
    const spent = { batches: 0, appends: 0, sync_ms: 0, serial_ms: 0 };
    for (let r = 0; r < PERSISTENT_ROUNDS; r++) {
      const ceiling = await bareGroupCommit(join(dir, `gc-${r}.jsonl`), bytes, clients * PERSISTENT_PER_CLIENT);
      ceilings.push(ceiling.rate);
      ceilingSyncMs.push(ceiling.syncMsPerBatch);
      ceilingPerBatch.push(ceiling.appendsPerBatch);
      const before = await commits();
      rates.push(await round(PERSISTENT_PER_CLIENT));
      const after = await commits();
      for (const key of Object.keys(spent) as Array<keyof typeof spent>) spent[key] += after[key] - before[key];
      floors.push(await round(PERSISTENT_PER_CLIENT, floorEndpoint));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    const batches = Math.max(1, spent.batches);
    return {
      rate: median(rates),
      ceiling: median(ceilings),
      ceilingSyncMs: median(ceilingSyncMs),
      ceilingPerBatch: median(ceilingPerBatch),
      floor: median(floors),
      runs: rates.map((r) => Math.round(r).toLocaleString('en-US')).join(' / '),
      commits: { perBatch: spent.appends / batches, syncMs: spent.sync_ms / batches, serialMs: spent.serial_ms / batches },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
