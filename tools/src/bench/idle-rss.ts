// Idle RSS section (issue 35, memory at rest; target <= 80 MB): the daemon settled and idle, then
// after 4,000 pings on fresh connections; beside a bare idle node process and, when configured,
// the reference Python daemon (CCCC_BENCH_REFERENCE_SRC) and another build's daemon
// (CCCC_BENCH_BEFORE_CLI=<checkout>/apps/cli/bin/cccc.js, e.g. main's: a before figure), all
// measured in the same run.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { startBenchDaemon } from './ping.js';
import { rawCall, type RawEndpoint } from './raw-call.js';
import { referenceSkipNote, startReferenceDaemon } from './reference-daemon.js';
import { mib, rssMiB } from './rss.js';
import { printTable } from './stats.js';

const SETTLE_MS = 10_000;
const PINGS = 4000;
const PING = '{"v":1,"op":"ping","args":{}}\n';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The median of a few RSS samples a second apart (one sample can catch a GC mid-way). */
async function settledRss(pid: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    samples.push(rssMiB(pid));
    await sleep(1000);
  }
  return samples.sort((a, b) => a - b)[2]!;
}

async function afterPings(pid: number, endpoint: RawEndpoint): Promise<number> {
  for (let i = 0; i < PINGS; i++) await rawCall(endpoint, PING);
  await sleep(2000);
  return settledRss(pid);
}

export async function benchIdleRss(): Promise<void> {
  const bare = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
  const daemon = await startBenchDaemon();
  const beforeCli = process.env['CCCC_BENCH_BEFORE_CLI']?.trim();
  const before = beforeCli ? await startBenchDaemon({}, { cli: beforeCli }) : undefined;
  const reference = await startReferenceDaemon();
  try {
    await sleep(SETTLE_MS);
    const idle = {
      bare: await settledRss(bare.pid!),
      daemon: await settledRss(daemon.child.pid!),
      before: before ? await settledRss(before.child.pid!) : undefined,
      reference: reference ? await settledRss(reference.child.pid!) : undefined,
    };
    const pinged = {
      daemon: await afterPings(daemon.child.pid!, daemon.endpoint),
      before: before ? await afterPings(before.child.pid!, before.endpoint) : undefined,
      reference: reference ? await afterPings(reference.child.pid!, reference.endpoint) : undefined,
    };
    const row = (process: string, at: number | undefined, after: number | undefined, target = '') => ({
      process,
      idle: at === undefined ? '' : mib(at),
      [`after ${PINGS} pings`]: after === undefined ? '' : mib(after),
      target,
    });
    printTable(`idle RSS, ${SETTLE_MS / 1000} s after start (median of 5 samples, 1 s apart)`, [
      row('bare node, idle (baseline)', idle.bare, undefined),
      ...(reference ? [row('reference Python daemon (baseline)', idle.reference, pinged.reference)] : []),
      row('cccc-ts daemon', idle.daemon, pinged.daemon, '<= 80 MB idle'),
      ...(before ? [row(`cccc-ts daemon of ${beforeCli} (before)`, idle.before, pinged.before)] : []),
    ]);
    if (!reference) console.log(referenceSkipNote());
  } finally {
    bare.kill();
    if (bare.exitCode === null) await once(bare, 'exit');
    await daemon.stop();
    await before?.stop();
    await reference?.stop();
  }
}
