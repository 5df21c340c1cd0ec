// Pieces of the memory section: stuck subscribers, a burst of large sends, Web upload rounds.
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { createConnection, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { benchGroup } from './memory-load.js';
import { startBenchDaemon } from './ping.js';
import { mib, rssMiB } from './rss.js';
import { startWeb } from './web.js';

/**
 * `events_stream` subscribers that never read: each sends its request line and pauses its
 * socket, so once the kernel's buffers are full everything the daemon writes queues in it.
 */
export async function openStuckSubscribers(path: string, groupId: string, n: number): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < n; i++) {
    const socket = createConnection(path);
    socket.on('error', () => {});
    await once(socket, 'connect');
    socket.write(JSON.stringify({ v: 1, op: 'events_stream', args: { group_id: groupId } }) + '\n');
    socket.pause();
    sockets.push(socket);
  }
  return sockets;
}

/** `total` Mail sends of `textBytes` each from 4 concurrent clients, as fast as they go; seconds taken. */
export async function sendBurst(home: string, groupId: string, total: number, textBytes: number): Promise<number> {
  const client = new DaemonClient({ home });
  const text = 'x'.repeat(textBytes);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async (_, c) => {
      for (let i = c; i < total; i += 4) await client.call('send', { group_id: groupId, text: `${i} ${text}`, to: ['peer1'], message_mode: 'mail' });
    }),
  );
  return (performance.now() - t0) / 1000;
}

async function post(url: string, body: FormData | string): Promise<void> {
  const res = await fetch(url, { method: 'POST', body, ...(typeof body === 'string' ? { headers: { 'content-type': 'application/json' } } : {}) });
  if (res.status !== 200) throw new Error(`POST ${url}: HTTP ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

/**
 * Web RSS after each round: first `rounds` rounds of JSON sends (the baseline), then the same
 * number of `send_upload` rounds with `files` files of `fileBytes` each per request.
 */
export async function webUploadRounds(o: { rounds: number; perRound: number; files: number; fileBytes: number }): Promise<Array<Record<string, string>>> {
  const daemon = await startBenchDaemon();
  const web = await startWeb(daemon.home);
  try {
    const gid = await benchGroup(daemon.home, 'memory-web');
    const pid = web.child.pid!;
    await sleep(1000);
    const start = rssMiB(pid);
    const series = async (one: (i: number) => Promise<void>) => {
      const out: number[] = [];
      for (let r = 0; r < o.rounds; r++) {
        for (let i = 0; i < o.perRound; i++) await one(r * o.perRound + i);
        await sleep(500);
        out.push(rssMiB(pid));
      }
      return out;
    };
    const plain = await series((i) => post(`${web.url}/api/v1/groups/${gid}/send`, JSON.stringify({ text: `plain ${i}`, to: ['peer1'], message_mode: 'mail' })));
    const payloads = Array.from({ length: o.files }, () => randomBytes(o.fileBytes));
    const uploads = await series((i) => {
      const form = new FormData();
      form.append('text', `upload ${i}`);
      form.append('to_json', '["peer1"]');
      form.append('message_mode', 'mail');
      payloads.forEach((p, k) => form.append('files', new Blob([p]), `file-${i}-${k}.bin`));
      return post(`${web.url}/api/v1/groups/${gid}/send_upload`, form);
    });
    await sleep(10_000);
    const settled = rssMiB(pid);
    const row = (name: string, xs: number[]) => ({
      case: name,
      'RSS after each round (MiB)': xs.map((x) => x.toFixed(0)).join(' '),
      'last - first round': `${(xs.at(-1)! - xs[0]!).toFixed(1)} MiB`,
    });
    return [
      { case: 'Web at start', 'RSS after each round (MiB)': mib(start), 'last - first round': '' },
      row(`${o.rounds} rounds x ${o.perRound} JSON sends (baseline)`, plain),
      row(`${o.rounds} rounds x ${o.perRound} uploads of ${o.files} x ${(o.fileBytes / 1048576).toFixed(0)} MiB`, uploads),
      { case: 'Web 10 s after the last upload', 'RSS after each round (MiB)': mib(settled), 'last - first round': '' },
    ];
  } finally {
    web.child.kill('SIGTERM');
    if (web.child.exitCode === null) await once(web.child, 'exit');
    await daemon.stop();
  }
}
