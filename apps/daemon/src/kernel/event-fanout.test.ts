import { kindDataSchemas, type CCCSEventV1, type EventStreamItem } from '@cccc/ipc-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, fakeAgentGroup, runtimeFixture, waitFor, type DaemonFixture } from '../../test-support/daemon-fixture.js';

let fx: DaemonFixture;

beforeAll(async () => {
  fx = await runtimeFixture();
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
});

/**
 * Publishing follows appending: every event of a group's ledger reaches the fan-out once, from
 * the ledger pool, whichever writer appended it (ops, delivery claims and settles, Inbox reads,
 * lifecycle records, confirmations, working state). Nothing publishes by hand any more, so a
 * writer that bypassed the pool would show up here as an event never heard.
 */
describe('publishing follows appending', () => {
  it('every writer: each ledger event is heard by the fan-out and streamed exactly once', async () => {
    const heard = new Map<string, number>();
    using _ = fx.services.commits.onPublished((published) => {
      for (const e of published) heard.set(e.id, (heard.get(e.id) ?? 0) + 1);
    });
    const gid = await fakeAgentGroup(fx, { lead: ['--no-alt-screen'] });
    const before = events(fx, gid).length;
    const stream = await fx.client.openEventsStream({ group_id: gid, kinds: Object.keys(kindDataSchemas) });
    const streamed: CCCSEventV1[] = [];
    const reading = (async () => {
      for await (const item of stream as AsyncIterable<EventStreamItem>) if (item.t === 'event') streamed.push(item.event as CCCSEventV1);
    })();

    await fx.client.call('actor_add', { group_id: gid, actor_id: 'off', runtime: 'custom', command: ['cat'] });
    await fx.client.call('actor_update', { group_id: gid, actor_id: 'off', patch: { enabled: false } });
    await fx.client.call('group_start', { group_id: gid });
    // Delivery into a running actor (claimed, accepted) and a blocked one (claimed, failed).
    const sent = await fx.client.call('send', { group_id: gid, text: 'hello', to: ['lead', 'off'], message_mode: 'send' });
    await waitFor(() => events(fx, gid).some((e) => e.kind === 'runtime.delivery' && (e.data as { state?: string }).state === 'accepted'), 15_000, 'an accepted delivery');
    // message_deliver claims explicitly.
    const pushed = await fx.client.call('send', { group_id: gid, text: 'pushed by hand', to: ['lead'], message_mode: 'mail' });
    const explicit = await fx.client.call('message_deliver', { group_id: gid, source_event_id: pushed.event.id, actor_ids: ['lead'] });
    expect(explicit.delivery_state).toBe('claimed');
    await waitFor(() => events(fx, gid).some((e) => e.kind === 'runtime.delivery' && (e.data as { source_event_id?: string; state?: string }).source_event_id === pushed.event.id && (e.data as { state?: string }).state === 'accepted'), 15_000, 'the explicit delivery');
    // Mail and a consuming Inbox read (mail.read), a reply request and its cancel, a notice, context.
    await fx.client.call('send', { group_id: gid, text: 'mail', to: ['lead'], message_mode: 'mail', by: 'user' });
    await fx.client.call('inbox_read', { group_id: gid, actor_id: 'lead', by: 'lead' });
    const ask = await fx.client.call('send', { group_id: gid, text: 'answer?', to: ['lead'], message_mode: 'request_reply' });
    await fx.client.call('reply_request_cancel', { group_id: gid, source_event_id: ask.event.id });
    await fx.client.call('system_notify', { group_id: gid, message: 'notice' });
    await fx.client.call('context_sync', { group_id: gid, ops: [{ op: 'coordination.brief.update', objective: 'ship' }] } as never);
    await fx.client.call('actor_stop', { group_id: gid, actor_id: 'lead' });
    await fx.client.call('group_set_state', { group_id: gid, state: 'paused' });

    await waitFor(() => events(fx, gid).slice(before).every((e) => streamed.some((s) => s.id === e.id)), 10_000, 'the stream to catch up');
    stream.close();
    await reading.catch(() => undefined);

    const ledger = events(fx, gid);
    const kinds = new Set(ledger.map((e) => e.kind));
    for (const k of ['group.create', 'group.attach', 'actor.add', 'actor.update', 'group.start', 'chat.message', 'runtime.delivery', 'mail.read', 'chat.reply_request.cancelled', 'system.notify', 'context.sync', 'actor.stop', 'group.set_state']) {
      expect(kinds, k).toContain(k);
    }
    expect(ledger.filter((e) => heard.get(e.id) !== 1).map((e) => `${e.kind} heard ${heard.get(e.id) ?? 0}×`)).toEqual([]);
    const streamedIds = streamed.map((e) => e.id);
    expect(new Set(streamedIds).size).toBe(streamedIds.length);
    expect(ledger.slice(before).filter((e) => !streamedIds.includes(e.id)).map((e) => e.kind)).toEqual([]);
    expect(sent.event.id).toBeDefined();
  });
});
