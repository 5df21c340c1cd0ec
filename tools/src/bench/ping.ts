import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { createConnection } from 'node:net';
import { DAEMON_NODE_ARGS } from '@cccc/cli';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { rawCall, type RawEndpoint } from './raw-call.js';
import { referenceSkipNote, startReferenceDaemon } from './reference-daemon.js';
import { fmt, printTable, summarize } from './stats.js';

const require = createRequire(import.meta.url);

async function waitForLine(child: ChildProcess): Promise<void> {
  let buf = '';
  for await (const chunk of child.stdout!) {
    buf += chunk.toString();
    if (buf.includes('\n')) return;
  }
  throw new Error('child exited before it was ready');
}

/**
 * The built daemon (`cccc daemon run`) as its own process in a temp CCCC_HOME, or in `home` when
 * given (a restart on an existing home: `stop()` then leaves it for the caller to remove).
 */
export async function startBenchDaemon(env: NodeJS.ProcessEnv = {}, options: { home?: string; cli?: string; nodeArgs?: readonly string[] } = {}) {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'cccc-bench-'));
  // `cli`: another build's bin/cccc.js, e.g. main's, for a before/after in one run.
  const cli = options.cli ?? require.resolve('@cccc/cli/bin/cccc.js');
  // e.g. CCCC_BENCH_DAEMON_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the daemon
  const nodeArgs = (process.env['CCCC_BENCH_DAEMON_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
  // As `cccc daemon start` runs it, unless the caller names other node options.
  const daemonArgs = options.nodeArgs ?? DAEMON_NODE_ARGS;
  const child = spawn(process.execPath, [...daemonArgs, ...nodeArgs, cli, 'daemon', 'run'], {
    env: { ...process.env, ...env, CCCC_HOME: home },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await waitForLine(child);
  return {
    home,
    child,
    endpoint: { path: join(home, 'daemon', 'ccccd.sock') } satisfies RawEndpoint,
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
      if (!options.home) rmSync(home, { recursive: true, force: true });
    },
  };
}

/** A baseline server in its own process: a bare echo, or with `durable` a group-committing one (bench-child.ts). */
export async function startEchoServer(options: { durable?: boolean } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'cccc-echo-'));
  const path = join(dir, 'echo.sock');
  const entry = fileURLToPath(new URL('./bench-child.js', import.meta.url));
  const args = options.durable ? ['durable-echo-server', path, join(dir, 'appended.jsonl')] : ['echo-server', path];
  const child = spawn(process.execPath, [entry, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  await waitForLine(child);
  return {
    endpoint: { path } as RawEndpoint,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function sample(endpoint: RawEndpoint, line: string, n: number, into: number[]) {
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await rawCall(endpoint, line);
    into.push(performance.now() - t);
  }
}

/** `n` requests one after another over one connection; the latency of each. */
async function samplePersistent(endpoint: RawEndpoint, line: string, n: number): Promise<number[]> {
  const socket = 'path' in endpoint ? createConnection(endpoint.path) : createConnection(endpoint.port, endpoint.host);
  await once(socket, 'connect');
  const out: number[] = [];
  let pending = '';
  let answered: (() => void) | undefined;
  socket.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const nl = pending.indexOf('\n');
    if (nl === -1) return;
    pending = pending.slice(nl + 1);
    answered?.();
  });
  try {
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await new Promise<void>((resolve) => {
        answered = resolve;
        socket.write(line);
      });
      out.push(performance.now() - t);
    }
  } finally {
    socket.destroy();
  }
  return out;
}

/**
 * `ping` over a fresh connection per call beside a bare NDJSON echo server and, when configured,
 * the reference Python daemon, in interleaved blocks so all see the same machine load.
 */
export async function benchPing(calls = 2000): Promise<void> {
  const daemon = await startBenchDaemon();
  const echo = await startEchoServer();
  const reference = await startReferenceDaemon();
  const line = '{"v":1,"op":"ping","args":{}}\n';
  try {
    await sample(daemon.endpoint, line, 100, []);
    await sample(echo.endpoint, line, 100, []);
    if (reference) await sample(reference.endpoint, line, 100, []);
    const d: number[] = [];
    const e: number[] = [];
    const r: number[] = [];
    // Small blocks: the load of a shared machine changes within seconds, and each server must see the same.
    const block = 20;
    for (let done = 0; done < calls; done += block) {
      await sample(echo.endpoint, line, block, e);
      await sample(daemon.endpoint, line, block, d);
      if (reference) await sample(reference.endpoint, line, block, r);
    }
    const client = new DaemonClient({ home: daemon.home });
    const c: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t = performance.now();
      await client.call('ping', {});
      c.push(performance.now() - t);
    }
    // One connection, requests one after another (how the Web and long-lived clients call).
    await samplePersistent(daemon.endpoint, line, 200);
    const pe = summarize(await samplePersistent(echo.endpoint, line, 2000));
    const pd = summarize(await samplePersistent(daemon.endpoint, line, 2000));
    const ds = summarize(d);
    const es = summarize(e);
    const cs = summarize(c);
    const rs = reference ? summarize(r) : undefined;
    printTable(`ping, fresh unix connection per call (${calls} calls, interleaved blocks of ${block})`, [
      { server: 'bare NDJSON echo server (baseline)', p50: fmt(es.p50), p99: fmt(es.p99), mean: fmt(es.mean), target: '' },
      ...(rs ? [{ server: 'reference Python daemon ping (baseline)', p50: fmt(rs.p50), p99: fmt(rs.p99), mean: fmt(rs.mean), target: '' }] : []),
      { server: 'cccc-ts daemon ping', p50: fmt(ds.p50), p99: fmt(ds.p99), mean: fmt(ds.mean), target: 'p50 <= 2x echo and <= reference; p99 <= 1 ms' },
      { server: 'cccc-ts daemon ping via DaemonClient (discovery + zod)', p50: fmt(cs.p50), p99: fmt(cs.p99), mean: fmt(cs.mean), target: '' },
    ]);
    printTable('ping, one persistent unix connection (2000 requests one after another)', [
      { server: 'bare NDJSON echo server (baseline)', p50: fmt(pe.p50), p99: fmt(pe.p99), mean: fmt(pe.mean), target: '' },
      { server: 'cccc-ts daemon ping', p50: fmt(pd.p50), p99: fmt(pd.p99), mean: fmt(pd.mean), target: 'p50 <= 0.06 ms' },
    ]);
    console.log(`ratio daemon/echo p50: ${(ds.p50 / es.p50).toFixed(2)}x (target <= 2x)`);
    if (rs) console.log(`ratio daemon/reference p50: ${(ds.p50 / rs.p50).toFixed(2)}x, p99: ${(ds.p99 / rs.p99).toFixed(2)}x (target p50 <= 1x); reference/echo p50: ${(rs.p50 / es.p50).toFixed(2)}x`);
    else console.log(referenceSkipNote());
  } finally {
    await daemon.stop();
    await echo.stop();
    await reference?.stop();
  }
}
