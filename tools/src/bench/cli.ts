// CLI section (issue 35, cold paths): wall time of a whole `cccc` process (spawn to exit, against
// a real daemon) beside a bare `node -e 0` started the same way, rounds interleaved so all see the
// same machine load, and each one's max RSS (GNU time's %M, in runs of their own). `ping` and
// `send` take the bin's CommonJS fast path; `actor list` and `group show` run the full commander
// CLI through the same bin, as every other command does (from its V8 code cache, bin/code-cache.js);
// the full CLI's own `ping` run as a plain `node dist/cli.cjs` shows what the fast path and the
// code cache each save. Target: p50 <= 1.5x bare node.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { startBenchDaemon } from './ping.js';
import { fmt, printTable } from './stats.js';

const require = createRequire(import.meta.url);
const run = promisify(execFile);
const GNU_TIME = '/usr/bin/time';

const pct = (samples: number[], q: number): number => {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

/** Wall time of one process from spawn to exit; a non-zero exit is an error (a broken bench). */
function timed(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(argv[0]!, argv.slice(1), { env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - t) : reject(new Error(`cli bench: ${argv.join(' ')} exited ${code}`))));
  });
}

/** Largest max RSS (MiB) over `runs` runs, or undefined without GNU time. */
async function maxRssMiB(argv: readonly string[], env: NodeJS.ProcessEnv, runs = 5): Promise<number | undefined> {
  if (!existsSync(GNU_TIME)) return undefined;
  let max = 0;
  for (let i = 0; i < runs; i++) {
    const { stderr } = await run(GNU_TIME, ['-f', '%M', ...argv], { env });
    max = Math.max(max, Number(stderr.trim().split('\n').pop()) / 1024);
  }
  return max;
}

export async function benchCli(rounds = 30, fullRounds = 10): Promise<void> {
  const bin = require.resolve('@cccc/cli/bin/cccc.js');
  const full = join(dirname(bin), '..', 'dist', 'cli.cjs');
  const daemon = await startBenchDaemon();
  try {
    const client = new DaemonClient({ home: daemon.home });
    const gid = (await client.call('group_create', { title: 'bench-cli' })).group_id;
    await client.call('actor_add', { group_id: gid, actor_id: 'peer1', runtime: 'custom', command: ['/bin/cat'] });
    const env = { PATH: process.env.PATH, CCCC_HOME: daemon.home };
    const node = process.execPath;
    const commands = {
      bare: [node, '-e', '0'],
      ping: [node, bin, 'ping'],
      send: [node, bin, 'send', 'bench message', '--group', gid, '--to', 'peer1'],
      actorList: [node, bin, 'actor', 'list', '--group', gid],
      groupShow: [node, bin, 'group', 'show', gid],
      fullPing: [node, full, 'ping'],
    };
    const samples: Record<keyof typeof commands, number[]> = { bare: [], ping: [], send: [], actorList: [], groupShow: [], fullPing: [] };
    const warmUp = 3;
    for (let i = 0; i < warmUp + rounds; i++) {
      const b = await timed(commands.bare, env);
      const p = await timed(commands.ping, env);
      const s = await timed(commands.send, env);
      const a = await timed(commands.actorList, env);
      const g = await timed(commands.groupShow, env);
      const f = i < warmUp + fullRounds ? await timed(commands.fullPing, env) : undefined;
      if (i < warmUp) continue; // page cache, daemon JIT
      samples.bare.push(b);
      samples.ping.push(p);
      samples.send.push(s);
      samples.actorList.push(a);
      samples.groupShow.push(g);
      if (f !== undefined) samples.fullPing.push(f);
    }
    const rss = {
      bare: await maxRssMiB(commands.bare, env),
      ping: await maxRssMiB(commands.ping, env),
      send: await maxRssMiB(commands.send, env),
      actorList: await maxRssMiB(commands.actorList, env),
      groupShow: await maxRssMiB(commands.groupShow, env),
      fullPing: await maxRssMiB(commands.fullPing, env, 3),
    };
    const b50 = pct(samples.bare, 0.5);
    const row = (what: string, key: keyof typeof commands, target: string) => ({
      process: what,
      p50: fmt(pct(samples[key], 0.5)),
      p95: fmt(pct(samples[key], 0.95)),
      'max RSS': rss[key] === undefined ? 'n/a (no /usr/bin/time)' : `${rss[key]!.toFixed(1)} MiB`,
      'p50 / node -e 0': key === 'bare' ? '1.00x' : `${(pct(samples[key], 0.5) / b50).toFixed(2)}x`,
      n: samples[key].length,
      target,
    });
    printTable('cli: a whole `cccc` process, spawn to exit, against a real daemon (rounds interleaved)', [
      row('node -e 0 (baseline, same run)', 'bare', ''),
      row('cccc ping (bin: fast path)', 'ping', '<= 1.5x'),
      row('cccc send --group G --to peer1 (bin: fast path)', 'send', '<= 1.5x'),
      row('cccc actor list --group G (bin: full CLI)', 'actorList', '<= 1.5x'),
      row('cccc group show G (bin: full CLI)', 'groupShow', '<= 1.5x'),
      row('cccc ping, full CLI without its code cache (node dist/cli.cjs)', 'fullPing', ''),
    ]);
  } finally {
    await daemon.stop();
  }
}
