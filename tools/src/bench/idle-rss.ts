// Idle RSS section (issue 35, memory at rest; target <= 80 MB): the daemon as `cccc daemon start`
// runs it, 3 s after start and settled (V8 hands back its startup young generation only when
// its memory reducer runs, seconds to a minute later depending on load), then after 4,000 pings
// on fresh connections, and at rest after a burst of Mail sends on persistent connections (what a
// burst starts, such as the background index writer thread, must go again; cccc-ts daemons only);
// beside a bare idle node process and, when configured, the reference
// Python daemon (CCCC_BENCH_REFERENCE_SRC) and another build's daemon as its own
// `cccc daemon start` ran it (CCCC_BENCH_BEFORE_CLI=<checkout>/apps/cli/bin/cccc.js, e.g.
// main's: a before figure), all measured in the same run.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { openLineConnection } from './line-connection.js';
import { startBenchDaemon } from './ping.js';
import { rawCall, type RawEndpoint } from './raw-call.js';
import { referenceSkipNote, startReferenceDaemon } from './reference-daemon.js';
import { mib, rssMiB } from './rss.js';
import { printTable } from './stats.js';

const EARLY_S = 3;
const SETTLED_S = 40;
const PINGS = 4000;
const PING = '{"v":1,"op":"ping","args":{}}\n';
const BURST_CLIENTS = 8;
const BURST_PER_CLIENT = 250;
/** Seconds after the burst when the rest is measured (median of its last 5 s). */
const REST_S = 20;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

interface Measured {
  readonly name: string;
  readonly pid: number;
  readonly endpoint?: RawEndpoint;
  /** A cccc-ts daemon's home: it also takes the burst of sends. */
  readonly home?: string;
  readonly target?: string;
  readonly samples: number[];
  early?: number;
  settled?: number;
  pinged?: number;
  rested?: number;
}

/** Mail sends into a new group, `BURST_CLIENTS` persistent connections each awaiting its answers. */
async function sendBurst(home: string, endpoint: RawEndpoint): Promise<void> {
  const client = new DaemonClient({ home });
  const gid = (await client.call('group_create', { title: 'rss burst' })).group_id;
  await client.call('actor_add', { group_id: gid, actor_id: 'peer1', runtime: 'custom', command: ['sh'] });
  const line = JSON.stringify({ v: 1, op: 'send', args: { group_id: gid, text: 'a burst of Mail to see what stays resident', to: ['peer1'], message_mode: 'mail' } }) + '\n';
  await Promise.all(
    Array.from({ length: BURST_CLIENTS }, async () => {
      const conn = await openLineConnection(endpoint);
      try {
        for (let i = 0; i < BURST_PER_CLIENT; i++) {
          const answer = await conn.call(line);
          if (!answer.includes('"ok":true')) throw new Error(`send refused: ${answer.slice(0, 200)}`);
        }
      } finally {
        conn.close();
      }
    }),
  );
}

/** RSS of every process once a second for `seconds`. */
async function sampleAll(all: Measured[], seconds: number): Promise<void> {
  for (let s = 0; s < seconds; s++) {
    await sleep(1000);
    for (const m of all) m.samples.push(rssMiB(m.pid));
  }
}

export async function benchIdleRss(): Promise<void> {
  const bare = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
  const daemon = await startBenchDaemon();
  const beforeCli = process.env['CCCC_BENCH_BEFORE_CLI']?.trim();
  const before = beforeCli ? await startBenchDaemon({}, { cli: beforeCli, nodeArgs: [] }) : undefined;
  const reference = await startReferenceDaemon();
  try {
    const all: Measured[] = [
      { name: 'bare node, idle (baseline)', pid: bare.pid!, samples: [] },
      ...(reference ? [{ name: 'reference Python daemon (baseline)', pid: reference.child.pid!, endpoint: reference.endpoint, samples: [] }] : []),
      { name: 'cccc-ts daemon', pid: daemon.child.pid!, endpoint: daemon.endpoint, home: daemon.home, target: '<= 80 MB idle', samples: [] },
      ...(before ? [{ name: `cccc-ts daemon of ${beforeCli} (before)`, pid: before.child.pid!, endpoint: before.endpoint, home: before.home, samples: [] }] : []),
    ];
    await sampleAll(all, SETTLED_S);
    for (const m of all) {
      m.early = m.samples[EARLY_S - 1];
      m.settled = median(m.samples.slice(-5));
    }
    for (const m of all) {
      if (!m.endpoint) continue;
      for (let i = 0; i < PINGS; i++) await rawCall(m.endpoint, PING);
    }
    for (const m of all) m.samples.length = 0;
    await sampleAll(all, 5);
    for (const m of all) if (m.endpoint) m.pinged = median(m.samples);
    for (const m of all) if (m.home && m.endpoint) await sendBurst(m.home, m.endpoint);
    await sleep((REST_S - 5) * 1000);
    for (const m of all) m.samples.length = 0;
    await sampleAll(all, 5);
    for (const m of all) if (m.home) m.rested = median(m.samples);
    const burst = BURST_CLIENTS * BURST_PER_CLIENT;
    printTable(`idle RSS: ${EARLY_S} s after start, settled (median of ${SETTLED_S - 5}-${SETTLED_S} s), after ${PINGS} fresh-connection pings, then ${REST_S} s after ${burst.toLocaleString('en-US')} Mail sends`, all.map((m) => ({
      process: m.name,
      [`${EARLY_S} s`]: mib(m.early!),
      settled: mib(m.settled!),
      [`after ${PINGS} pings`]: m.pinged === undefined ? '' : mib(m.pinged),
      [`${REST_S} s after the sends`]: m.rested === undefined ? '' : mib(m.rested),
      target: m.target ?? '',
    })));
    if (!reference) console.log(referenceSkipNote());
  } finally {
    bare.kill();
    if (bare.exitCode === null) await once(bare, 'exit');
    await daemon.stop();
    await before?.stop();
    await reference?.stop();
  }
}
