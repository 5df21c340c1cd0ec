// Web section (issue 8): ledger SSE fan-out to 20 clients — latency from a `send` acknowledged
// by the daemon to each SSE client receiving the event (target p50 <= 20 ms) — with the daemon's
// own events_stream latency to one IPC subscriber as the baseline, measured on the same sends,
// and the hop the Web adds (SSE arrival minus IPC arrival of the same event).
// Also the gzipped size of the built browser app (apps/web/dist/app), when it is built.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { freePort } from '../free-port.js';
import { startBenchDaemon } from './ping.js';
import { printTable } from './stats.js';

const require = createRequire(import.meta.url);
const CLIENTS = 20;
const SENDS = 200;
const WARMUP = 20;

/** `cccc web --port` as its own process (as a user runs it), ready once it prints its URL. */
export async function startWeb(home: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const cli = require.resolve('@cccc/cli/bin/cccc.js');
  const child = spawn(process.execPath, [cli, 'web', '--port', String(port)], {
    env: { ...process.env, CCCC_HOME: home },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  for await (const chunk of child.stdout!) {
    out += String(chunk);
    if (out.includes(`:${port}/`)) return { url: `http://127.0.0.1:${port}`, child };
  }
  throw new Error(`cccc web exited before listening: ${out}`);
}

/** A minimal SSE reader: calls `onEvent(id)` with the arrival time of each `event: ledger` frame. */
function openSse(url: string, onEvent: (id: string, at: number) => void): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`SSE ${url}: HTTP ${res.statusCode}`));
      res.setEncoding('utf8');
      let buf = '';
      res.on('data', (chunk: string) => {
        const at = performance.now();
        buf += chunk;
        let end: number;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const frame = buf.slice(0, end);
          buf = buf.slice(end + 2);
          if (!frame.startsWith('event: ledger')) continue;
          const id = /^id: (.+)$/m.exec(frame)?.[1];
          if (id) onEvent(id, at);
        }
      });
      resolve(() => req.destroy());
    });
    req.on('error', reject);
    req.end();
  });
}

function pct(samples: number[], q: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}
const ms = (v: number) => `${v.toFixed(2)} ms`;

/** Walk up from this file to the repository root (the folder holding apps/web). */
function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'apps', 'web', 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('repository root not found');
    dir = up;
  }
  return dir;
}

function spaBundle(): Array<Record<string, string | number>> | null {
  const root = join(repoRoot(), 'apps', 'web', 'dist', 'app');
  if (!existsSync(root)) return null;
  const rows: Array<Record<string, string | number>> = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(js|css)$/.test(name)) {
        const raw = readFileSync(path);
        rows.push({ file: path.slice(root.length + 1), bytes: raw.length, gzipped: gzipSync(raw, { level: 9 }).length });
      }
    }
  };
  walk(root);
  return rows;
}

export async function benchWeb(): Promise<void> {
  const daemon = await startBenchDaemon();
  const web = await startWeb(daemon.home);
  const client = new DaemonClient({ home: daemon.home });
  const closers: Array<() => void> = [];
  try {
    const gid = (await client.call('group_create', { title: 'bench-web' })).group_id;
    await client.call('actor_add', { group_id: gid, actor_id: 'peer1', runtime: 'custom', command: ['true'] });

    // Arrival times per event id: SSE clients by index, the IPC baseline as -1.
    const arrivals = new Map<string, Map<number, number>>();
    const arrived = (id: string, who: number, at: number) => {
      let m = arrivals.get(id);
      if (!m) arrivals.set(id, (m = new Map()));
      if (!m.has(who)) m.set(who, at);
      wake?.();
    };
    let wake: (() => void) | undefined;
    for (let i = 0; i < CLIENTS; i++) {
      closers.push(await openSse(`${web.url}/api/v1/groups/${gid}/ledger/stream`, (id, at) => arrived(id, i, at)));
    }
    const ipc = await client.openEventsStream({ group_id: gid });
    closers.push(() => ipc.close());
    void (async () => {
      for await (const item of ipc) {
        if (item.t === 'event' && 'event' in item) arrived((item.event as { id: string }).id, -1, performance.now());
      }
    })();

    const rows = { sseReq: [] as number[], sseAck: [] as number[], ipcReq: [] as number[], ipcAck: [] as number[], hop: [] as number[], rtt: [] as number[] };
    for (let n = 0; n < WARMUP + SENDS; n++) {
      const t0 = performance.now();
      const { event } = await client.call('send', { group_id: gid, text: `bench ${n}`, to: ['peer1'], message_mode: 'mail' });
      const tAck = performance.now();
      for (;;) {
        const m = arrivals.get(event.id);
        if (m && m.size === CLIENTS + 1) break;
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 1000).unref();
        });
      }
      const m = arrivals.get(event.id)!;
      arrivals.delete(event.id);
      if (n < WARMUP) continue;
      const ipcAt = m.get(-1)!;
      rows.rtt.push(tAck - t0);
      rows.ipcReq.push(ipcAt - t0);
      rows.ipcAck.push(ipcAt - tAck);
      for (const [who, at] of m) {
        if (who === -1) continue;
        rows.sseReq.push(at - t0);
        rows.sseAck.push(at - tAck);
        rows.hop.push(at - ipcAt);
      }
    }
    const row = (path: string, xs: number[]) => ({ path, n: xs.length, p50: ms(pct(xs, 0.5)), p95: ms(pct(xs, 0.95)), max: ms(pct(xs, 1)) });
    // The daemon pushes to streams as it appends, so an event often reaches a subscriber before
    // the send's own acknowledgement reaches the sender: ack-relative latencies are signed.
    printTable(`web: ledger SSE fan-out to ${CLIENTS} clients (${SENDS} sends over IPC, Web as its own process)`, [
      row(`send ack -> each of ${CLIENTS} SSE clients (negative: before the ack)`, rows.sseAck),
      row(`send request -> each of ${CLIENTS} SSE clients`, rows.sseReq),
      row('baseline: send ack -> 1 IPC events_stream', rows.ipcAck),
      row('baseline: send request -> 1 IPC events_stream', rows.ipcReq),
      row('Web hop: SSE arrival - IPC arrival (same event)', rows.hop),
      row('send round trip (request -> ack)', rows.rtt),
    ]);
    const p50 = pct(rows.sseAck, 0.5);
    console.log(`target: send ack -> SSE p50 <= 20 ms: ${p50 <= 20 ? 'met' : 'NOT met'} (${ms(p50)})`);

    const bundle = spaBundle();
    if (!bundle) console.log('\nweb: SPA not built (apps/web/dist/app is missing)');
    else {
      const gz = bundle.reduce((a, r) => a + Number(r.gzipped), 0);
      const raw = bundle.reduce((a, r) => a + Number(r.bytes), 0);
      printTable('web: SPA bundle (apps/web/dist/app, .js + .css)', [...bundle, { file: 'total', bytes: raw, gzipped: gz }]);
      console.log(`SPA bundle: ${(gz / 1024).toFixed(1)} KiB gzipped (${(raw / 1024).toFixed(1)} KiB raw)`);
    }
  } finally {
    for (const close of closers) close();
    web.child.kill('SIGTERM');
    await once(web.child, 'exit');
    await daemon.stop();
  }
}
