import { createConnection } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStreamItem } from '@cccc/ipc-protocol';
import { startDaemonFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';

let fx: DaemonFixture;
let gid: string;

beforeAll(async () => {
  fx = await startDaemonFixture({ env: { CCCC_STREAM_HEARTBEAT_MS: '200', CCCC_STREAM_MAX_PENDING_BYTES: String(256 * 1024) } });
  gid = (await fx.client.call('group_create', { title: 'streams' })).group_id;
  await fx.client.call('actor_add', { group_id: gid, actor_id: 'lead', runtime: 'custom', command: ['sh'] });
  await fx.client.call('actor_add', { group_id: gid, actor_id: 'peer1', runtime: 'custom', command: ['sh'] });
  await fx.client.call('actor_add', { group_id: gid, actor_id: 'peer2', runtime: 'custom', command: ['sh'] });
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
});

/** Collect items from a stream until `until` says stop (or a timeout). */
async function collect(stream: AsyncIterable<EventStreamItem>, until: (items: EventStreamItem[]) => boolean, ms = 5000) {
  const items: EventStreamItem[] = [];
  const timer = setTimeout(() => (stream as unknown as { close(): void }).close(), ms);
  for await (const item of stream) {
    items.push(item);
    if (until(items)) break;
  }
  clearTimeout(timer);
  return items;
}
const events = (items: EventStreamItem[]) => items.filter((i) => i.t === 'event').map((i) => (i as { event: { id: string; kind: string } }).event);

describe('events_stream', () => {
  it('pushes new events of the default kinds, with heartbeats', async () => {
    const stream = await fx.client.openEventsStream({ group_id: gid });
    expect(stream.handshake).toEqual({ group_id: gid });
    const sent = await fx.client.call('send', { group_id: gid, text: 'live', to: ['peer1'], message_mode: 'send' });
    await fx.client.call('group_update', { group_id: gid, patch: { title: 'renamed' } } as never).catch(() => undefined);
    const items = await collect(stream, (xs) => xs.some((x) => x.t === 'heartbeat') && events(xs).length >= 1);
    expect(events(items).map((e) => e.id)).toEqual([sent.event.id]);
    expect(events(items).every((e) => e.kind !== 'group.update')).toBe(true);
    stream.close();
  });

  it('filters by kinds and resumes strictly after since_event_id', async () => {
    const a = await fx.client.call('send', { group_id: gid, text: 'a', to: ['peer1'], message_mode: 'mail' });
    const b = await fx.client.call('send', { group_id: gid, text: 'b', to: ['peer1'], message_mode: 'mail' });
    const n = await fx.client.call('system_notify', { group_id: gid, message: 'n' });
    const stream = await fx.client.openEventsStream({ group_id: gid, since_event_id: a.event.id, kinds: ['chat.message'] });
    const items = await collect(stream, (xs) => events(xs).length >= 1);
    expect(events(items).map((e) => e.id)).toEqual([b.event.id]);
    expect(events(items).map((e) => e.id)).not.toContain(n.event.id);
    stream.close();
    const missing = await fx.client
      .openEventsStream({ group_id: gid, since_event_id: 'f'.repeat(32) })
      .then(() => 'ok', (e: { code: string }) => e.code);
    expect(missing).toBe('event_not_found');
  });

  it('an actor view shows what is addressed to that actor, never its own messages', async () => {
    const stream = await fx.client.openEventsStream({ group_id: gid, by: 'peer1' });
    await fx.client.call('send', { group_id: gid, text: 'mine', to: ['lead'], message_mode: 'send', by: 'peer1' });
    await fx.client.call('send', { group_id: gid, text: 'not for me', to: ['peer2'], message_mode: 'send' });
    const forMe = await fx.client.call('send', { group_id: gid, text: 'for peer1', to: ['@peers'], message_mode: 'send', by: 'lead' });
    const items = await collect(stream, (xs) => events(xs).length >= 1);
    expect(events(items).map((e) => e.id)).toEqual([forMe.event.id]);
    stream.close();
  });

  it('ends a subscriber that falls behind with a final slow_subscriber item', async () => {
    const ep = fx.daemon.endpoint as { path: string };
    const socket = createConnection(ep.path);
    await new Promise((r) => socket.once('connect', r));
    socket.write(JSON.stringify({ v: 1, op: 'events_stream', args: { group_id: gid } }) + '\n');
    socket.pause(); // a subscriber that never reads
    const big = 'x'.repeat(30_000);
    for (let i = 0; i < 60; i++) await fx.client.call('send', { group_id: gid, text: big, to: ['peer1'], message_mode: 'mail' });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.resume();
    await new Promise((r) => socket.once('close', r));
    const lines = Buffer.concat(chunks).toString('utf8').trim().split('\n');
    const last = JSON.parse(lines.at(-1)!);
    expect(last).toMatchObject({ t: 'error', code: 'slow_subscriber' });
    // Everything before the error is a contiguous prefix: nothing was skipped.
    const ids = lines.slice(1, -1).map((l) => JSON.parse(l)).filter((i) => i.t === 'event').map((i) => i.event.id);
    const ledgerIds = fx.ledgerLines(gid).map((l) => JSON.parse(l)).filter((e) => e.kind === 'chat.message').map((e) => e.id);
    const start = ledgerIds.indexOf(ids[0]);
    expect(ids).toEqual(ledgerIds.slice(start, start + ids.length));
    // the daemon is fine
    expect((await fx.client.call('ping', {})).ipc_v).toBe(1);
  });
});

describe('global_events_stream', () => {
  it('pushes group and actor changes across groups', async () => {
    const stream = await fx.client.openGlobalEventsStream({});
    const other = (await fx.client.call('group_create', { title: 'global' })).group_id;
    await fx.client.call('actor_add', { group_id: other, actor_id: 'solo', runtime: 'custom', command: ['sh'] });
    const items = await collect(stream, (xs) => events(xs).length >= 2);
    const kinds = items
      .filter((i) => i.t === 'event')
      .map((i) => (i as { event: { kind: string; group_id: string } }).event)
      .map((e) => `${e.kind}:${e.group_id}`);
    expect(kinds).toEqual([`group.create:${other}`, `actor.add:${other}`]);
    stream.close();
  });
});
