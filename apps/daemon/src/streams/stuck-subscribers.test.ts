import { createConnection, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemonFixture, waitFor, type DaemonFixture } from '../../test-support/daemon-fixture.js';

let fx: DaemonFixture;
let gid: string;

beforeAll(async () => {
  fx = await startDaemonFixture(); // default stream tuning: 1 MiB per subscriber
  gid = (await fx.client.call('group_create', { title: 'stuck' })).group_id;
  await fx.client.call('actor_add', { group_id: gid, actor_id: 'peer1', runtime: 'custom', command: ['cat'] });
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
});

/** A subscriber that reads its handshake and then never reads again. */
async function stuckSubscriber(op: 'events_stream' | 'global_events_stream'): Promise<{ socket: Socket; closed: Promise<void> }> {
  const socket = createConnection((fx.daemon.endpoint as { path: string }).path);
  await new Promise((r) => socket.once('connect', r));
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  socket.on('error', () => undefined);
  socket.write(JSON.stringify({ v: 1, op, args: op === 'events_stream' ? { group_id: gid } : {} }) + '\n');
  await new Promise((r) => socket.once('data', r));
  socket.pause();
  return { socket, closed };
}

describe('stuck subscribers (issue 20)', () => {
  it('20 subscribers that never read are each ended with slow_subscriber and closed; what they held is let go', async () => {
    const stuck = await Promise.all(Array.from({ length: 20 }, () => stuckSubscriber('events_stream')));
    expect(fx.services.streams.subscriberCount).toBe(20);
    const text = 'x'.repeat(16 * 1024);
    for (let i = 0; i < 400 && fx.services.streams.subscriberCount > 0; i++) {
      await fx.client.call('send', { group_id: gid, text, to: ['peer1'], message_mode: 'mail' });
    }
    await waitFor(() => fx.services.streams.subscriberCount === 0, 5000, 'subscribers dropped');
    // Each was sent a final slow_subscriber item and closed (read now, after the fact).
    const finals = await Promise.all(
      stuck.map(async ({ socket, closed }) => {
        const chunks: Buffer[] = [];
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.resume();
        await closed;
        return JSON.parse(Buffer.concat(chunks).toString('utf8').trim().split('\n').at(-1)!);
      }),
    );
    for (const final of finals) expect(final).toMatchObject({ t: 'error', code: 'slow_subscriber', details: { limit: 1024 * 1024 } });
    expect((await fx.client.call('ping', {})).ipc_v).toBe(1);
  });

  it('the final item names the queued bytes and the limit', async () => {
    const { socket, closed } = await stuckSubscriber('events_stream');
    const text = 'y'.repeat(16 * 1024);
    for (let i = 0; i < 400 && fx.services.streams.subscriberCount > 0; i++) {
      await fx.client.call('send', { group_id: gid, text, to: ['peer1'], message_mode: 'mail' });
    }
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.resume();
    await closed;
    const lines = Buffer.concat(chunks).toString('utf8').trim().split('\n');
    const final = JSON.parse(lines.at(-1)!);
    expect(final).toMatchObject({ t: 'error', code: 'slow_subscriber', details: { limit: 1024 * 1024 } });
    expect(final.details.queued_bytes).toBeGreaterThan(1024 * 1024);
  });
});
