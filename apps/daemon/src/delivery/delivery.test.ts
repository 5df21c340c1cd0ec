import { afterEach, describe, expect, it } from 'vitest';
import { deliveries, events, fakeAgentGroup, runtimeFixture, screenOf, waitFor } from '../../test-support/daemon-fixture.js';

type Fx = Awaited<ReturnType<typeof runtimeFixture>>;

const received = (fx: Fx, gid: string, aid: string, needle: string) =>
  waitFor(async () => (await screenOf(fx, gid, aid)).includes(needle), 10_000, `screen of ${aid} to show ${needle}`);

describe('delivery into PTY actors (real PTYs, fake agent)', () => {
  let fx: Fx | undefined;
  afterEach(async () => {
    await fx?.[Symbol.asyncDispose]();
    fx = undefined;
  });

  it('send: claimed before the write, accepted after, rendered header on the agent screen; preamble once', async () => {
    fx = await runtimeFixture();
    const gid = await fakeAgentGroup(fx);
    await fx.client.call('group_start', { group_id: gid });
    const t0 = Date.now();
    const { event } = await fx.client.call('send', { group_id: gid, text: 'hello', to: ['peer1'], message_mode: 'send' });
    await waitFor(() => deliveries(fx!, gid, event.id).includes('peer1:accepted'), 10_000, 'accepted');
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(deliveries(fx, gid, event.id)).toEqual(['peer1:claimed', 'peer1:accepted']);
    await received(fx, gid, 'peer1', `[fake-agent] received: [cccc] user → peer1 [event_id=${event.id}]: hello`);

    const rr = await fx.client.call('send', { group_id: gid, text: 'answer me', to: ['peer1'], message_mode: 'request_reply' });
    await received(fx, gid, 'peer1', `[event_id=${rr.event.id} reply_required]: answer me`);
    const screen = await screenOf(fx, gid, 'peer1');
    expect(screen.split('You are peer1').length - 1).toBe(1);
  });

  it('a user Send to an active, running group parses group.yaml no more (nothing to resume, nothing written)', async () => {
    fx = await runtimeFixture();
    const gid = await fakeAgentGroup(fx);
    await fx.client.call('group_start', { group_id: gid });
    const first = await fx.client.call('send', { group_id: gid, text: 'warm', to: ['peer1'], message_mode: 'send' });
    await waitFor(() => deliveries(fx!, gid, first.event.id).includes('peer1:accepted'), 10_000, 'accepted');
    const loads = fx.services.groups.stats.loads;
    for (let i = 0; i < 5; i++) await fx.client.call('send', { group_id: gid, text: `again ${i}`, to: ['peer1'], message_mode: 'send' });
    expect(fx.services.groups.stats.loads).toBe(loads);
  });

  it('mail never touches the runtime; message_deliver promotes it under the §8.6 rules', async () => {
    fx = await runtimeFixture();
    const gid = await fakeAgentGroup(fx, { peer1: [], peer2: [] });
    await fx.client.call('group_start', { group_id: gid });
    const { event } = await fx.client.call('send', { group_id: gid, text: 'fyi', to: ['peer1'], message_mode: 'mail' });
    await new Promise((r) => setTimeout(r, 500));
    expect(deliveries(fx, gid, event.id)).toEqual([]);
    expect(await screenOf(fx, gid, 'peer1')).not.toContain('fyi');

    const codeOf = async (args: Record<string, unknown>) =>
      (await fx!.client.request({ v: 1, op: 'message_deliver', args: { group_id: gid, source_event_id: event.id, ...args } })).error?.code;
    expect(await codeOf({ actor_ids: ['peer1'], by: 'peer2' })).toBe('permission_denied');
    expect(await codeOf({ actor_ids: ['peer2'] })).toBe('invalid_recipient');

    const res = await fx.client.call('message_deliver', { group_id: gid, source_event_id: event.id, actor_ids: ['peer1'] });
    expect(res).toMatchObject({ actor_ids: ['peer1'], delivery_state: 'claimed' });
    expect(deliveries(fx, gid, event.id)[0]).toBe('peer1:claimed');
    await received(fx, gid, 'peer1', `[event_id=${event.id}]: fyi`);
    await waitFor(() => deliveries(fx!, gid, event.id).includes('peer1:accepted'));
    // accepted is never retried: a no-op that claims nothing
    const again = await fx.client.call('message_deliver', { group_id: gid, source_event_id: event.id, actor_ids: ['peer1'] });
    expect(again.actor_ids).toEqual([]);
    expect(deliveries(fx, gid, event.id)).toEqual(['peer1:claimed', 'peer1:accepted']);
  });

  it('paused group holds delivery and delivers on resume; a user send resumes a paused group', async () => {
    fx = await runtimeFixture();
    const gid = await fakeAgentGroup(fx, { peer1: [], peer2: [] });
    await fx.client.call('group_start', { group_id: gid });
    await fx.client.call('group_set_state', { group_id: gid, state: 'paused' });
    const held = await fx.client.call('send', { group_id: gid, text: 'held', to: ['peer2'], message_mode: 'send', by: 'peer1' });
    await new Promise((r) => setTimeout(r, 600));
    expect(deliveries(fx, gid, held.event.id)).toEqual([]);
    await fx.client.call('group_set_state', { group_id: gid, state: 'active' });
    await received(fx, gid, 'peer2', `[event_id=${held.event.id}]: held`);

    await fx.client.call('group_set_state', { group_id: gid, state: 'paused' });
    const fromUser = await fx.client.call('send', { group_id: gid, text: 'wake up', to: ['peer1'], message_mode: 'send' });
    const { group } = await fx.client.call('group_show', { group_id: gid });
    expect(group.state).toBe('active');
    await received(fx, gid, 'peer1', `[event_id=${fromUser.event.id}]: wake up`);
  });

  it('disabled actor gets delivery_blocked; actor_start refills its blocked work', async () => {
    fx = await runtimeFixture();
    const gid = await fakeAgentGroup(fx, { peer1: [], peer2: [], peer3: [] });
    await fx.client.call('group_start', { group_id: gid });
    await fx.client.call('actor_stop', { group_id: gid, actor_id: 'peer2' });
    const { event } = await fx.client.call('send', { group_id: gid, text: 'later', to: ['peer2', 'peer3'], message_mode: 'send', by: 'peer1' });
    expect(deliveries(fx, gid, event.id).filter((d) => d.startsWith('peer2'))).toEqual(['peer2:claimed', 'peer2:failed']);
    const blocked = events(fx, gid).find((e) => e.kind === 'runtime.delivery' && e.data['actor_id'] === 'peer2' && e.data['state'] === 'failed')!;
    expect(String(blocked.data['reason'])).toContain('delivery_blocked');
    const code = (await fx.client.request({ v: 1, op: 'message_deliver', args: { group_id: gid, source_event_id: event.id, actor_ids: ['peer2'] } })).error?.code;
    expect(code).toBe('delivery_blocked');

    await fx.client.call('actor_start', { group_id: gid, actor_id: 'peer2' });
    await received(fx, gid, 'peer2', `[event_id=${event.id}]: later`);
    await waitFor(() => deliveries(fx!, gid, event.id).filter((d) => d.startsWith('peer2')).at(-1) === 'peer2:accepted');
  });

  it('reply notice: one content-free system.notify after an accepted request_reply', async () => {
    fx = await runtimeFixture();
    const gid = await fakeAgentGroup(fx);
    await fx.client.call('group_settings_update', { group_id: gid, patch: { reply_notice_after_seconds: 1 } });
    await fx.client.call('group_start', { group_id: gid });
    const { event } = await fx.client.call('send', { group_id: gid, text: 'q?', to: ['peer1'], message_mode: 'request_reply' });
    const notice = await waitFor(() => events(fx!, gid).find((e) => e.kind === 'system.notify' && e.data['kind'] === 'reply_notice'), 10_000, 'reply_notice');
    expect(notice.data).toMatchObject({ target_actor_id: 'peer1' });
    expect(String(notice.data['message'])).not.toContain('q?');
    expect(String(notice.data['message'])).toContain(event.id);
    await received(fx, gid, 'peer1', '[cccc] SYSTEM (reply_notice): Reply pending');
  });
});
