// Attach section (issue 6): PTY output throughput to one attached client over the real daemon
// socket (target >= 50 MB/s), beside the same flood read straight from node-pty in this process;
// terminal_tail of a full 10 MiB backlog over IPC (target <= 300 ms).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { defaultPtySpawner } from '@cccc/pty-runtime';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import { startBenchDaemon } from './ping.js';
import { fmt, printTable, summarize } from './stats.js';

const FLOOD_BYTES = 50 * 1000 * 1000;
const DONE = '[fake-agent] flood done';

/** Bytes/second of the fake agent's flood read directly from a PTY (no daemon): the ceiling. */
async function directPtyMBps(): Promise<number> {
  const pty = defaultPtySpawner()({ argv: fakeAgentArgv(['--no-alt-screen', '--flood', String(FLOOD_BYTES)]), env: process.env as Record<string, string>, cwd: process.cwd(), cols: 120, rows: 40 });
  let bytes = 0;
  let t0 = 0;
  let tail = '';
  await new Promise<void>((resolve) => {
    pty.onData((d) => {
      if (t0 === 0) t0 = performance.now();
      bytes += d.byteLength;
      tail = (tail + Buffer.from(d.subarray(Math.max(0, d.byteLength - 64))).toString('latin1')).slice(-128);
      if (tail.includes(DONE)) resolve();
    });
  });
  const secs = (performance.now() - t0) / 1000;
  pty.kill('SIGKILL');
  return bytes / 1e6 / secs;
}

/** Polls the ring's end cursor (terminal_since past the end returns the end, no data). */
async function ringIngestMBps(client: DaemonClient, gid: string, aid: string): Promise<number> {
  let t0 = 0;
  let end = 0;
  for (;;) {
    const page = await client.call('terminal_since', { group_id: gid, actor_id: aid, after: Number.MAX_SAFE_INTEGER, limit_bytes: 1 });
    end = page.history.end_cursor;
    if (t0 === 0 && end > 0) t0 = performance.now();
    if (end >= FLOOD_BYTES) return end / 1e6 / ((performance.now() - t0) / 1000);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export async function benchAttach(): Promise<void> {
  const direct = await directPtyMBps();
  const daemon = await startBenchDaemon();
  const client = new DaemonClient({ home: daemon.home });
  try {
    const gid = (await client.call('group_create', { title: 'bench-attach' })).group_id;
    const scope = join(daemon.home, 'scope');
    mkdirSync(scope, { recursive: true });
    await client.call('attach', { path: scope, group_id: gid });
    await client.call('actor_add', {
      group_id: gid,
      actor_id: 'flood',
      runtime: 'custom',
      command: fakeAgentArgv(['--no-alt-screen', '--start-delay-ms', '1500', '--flood', String(FLOOD_BYTES)]),
    });
    // The same flood into the daemon's ring with nobody attached: how fast the daemon ingests.
    await client.call('actor_add', {
      group_id: gid,
      actor_id: 'ring',
      runtime: 'custom',
      command: fakeAgentArgv(['--no-alt-screen', '--flood', String(FLOOD_BYTES)]),
    });
    await client.call('actor_start', { group_id: gid, actor_id: 'ring' });
    const ringOnly = await ringIngestMBps(client, gid, 'ring');
    await client.call('actor_stop', { group_id: gid, actor_id: 'ring' });

    await client.call('actor_start', { group_id: gid, actor_id: 'flood' });
    const attachment = await client.openTermAttach({ group_id: gid, actor_id: 'flood', mode: 'viewer', since: 0 });
    let bytes = attachment.initialBytes.byteLength;
    let t0 = 0;
    let tail = '';
    const seconds = await new Promise<number>((resolve, reject) => {
      attachment.socket.on('data', (d: Buffer) => {
        if (t0 === 0) t0 = performance.now();
        bytes += d.byteLength;
        tail = (tail + d.subarray(Math.max(0, d.byteLength - 64)).toString('latin1')).slice(-128);
        if (tail.includes(DONE)) resolve((performance.now() - t0) / 1000);
      });
      attachment.socket.on('close', () => reject(new Error('attach stream closed before the flood ended')));
      attachment.socket.resume();
    });
    attachment.close();
    const attached = bytes / 1e6 / seconds;

    // The flood left a full 10 MiB ring behind: render all of it, keep the default 8000 chars.
    await client.call('terminal_tail', { group_id: gid, actor_id: 'flood' });
    const samples: number[] = [];
    let endCursor = 0;
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      const res = await client.call('terminal_tail', { group_id: gid, actor_id: 'flood' });
      samples.push(performance.now() - t);
      endCursor = res.end_cursor;
    }
    const snap = await client.call('terminal_snapshot', { group_id: gid, actor_id: 'flood', limit_bytes: 1 });
    const retainedMiB = (snap.end_cursor - snap.start_cursor) / (1024 * 1024);
    const tail10 = summarize(samples);
    await client.call('actor_stop', { group_id: gid, actor_id: 'flood' });

    printTable('attach: PTY output to one attached client (real daemon socket)', [
      { path: 'node-pty read in-process (baseline)', bytes: FLOOD_BYTES, 'MB/s': direct.toFixed(1), target: '' },
      { path: 'daemon: PTY -> ring, nobody attached', bytes: FLOOD_BYTES, 'MB/s': ringOnly.toFixed(1), target: '' },
      { path: 'daemon: PTY -> ring -> term_attach socket -> client', bytes, 'MB/s': attached.toFixed(1), target: '>= 50 MB/s' },
    ]);
    printTable('attach: terminal_tail over IPC of a full backlog', [
      { backlog: `${retainedMiB.toFixed(2)} MiB (end_cursor ${endCursor})`, p50: fmt(tail10.p50), p99: fmt(tail10.p99), n: tail10.n, target: '<= 300 ms' },
    ]);
  } finally {
    await daemon.stop();
  }
}
