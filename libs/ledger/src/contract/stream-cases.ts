import { expect } from 'vitest';
import type { LedgerEvent } from '../types.js';
import { actorAdd, chat, codeOf, type Check, type WithStore } from './helpers.js';

/** Contract cases: follow, snapshot. */
export function streamCases(check: Check, withStore: WithStore): void {
  check('follow', 'a follower returns each new event once, in order', () =>
    withStore({}, async (s) => {
      const before = (await s.append({ kind: 'x.a', by: 'user', data: { n: 0 } })).event;
      const tail = s.follow();
      const resumed = s.follow({ afterEventId: before.id });
      const all = s.follow({ fromStart: true });
      const ids: string[] = [];
      for (let i = 1; i <= 3; i++) ids.push((await s.append({ kind: 'x.a', by: 'user', data: { n: i } })).event.id);
      expect(tail.poll().map((e) => e.id)).toEqual(ids);
      expect(tail.poll()).toEqual([]);
      expect(resumed.poll().map((e) => e.id)).toEqual(ids);
      expect(all.poll().map((e) => e.id)).toEqual([before.id, ...ids]);
      expect(await codeOf(() => s.follow({ afterEventId: 'e'.repeat(32) }))).toBe('event_not_found');
      tail.close();
    }),
  );

  check('appendedOnce', 'onAppended hears every written event once, from every write path, and no duplicate', async () => {
    const heard: LedgerEvent[] = [];
    await withStore({ onAppended: (e) => heard.push(e) }, async (s) => {
      const written: string[] = [];
      const note = (e: { id: string }) => written.push(e.id);
      note((await s.append(actorAdd('peer1'))).event);
      const src = (await s.append(chat('user', ['peer1'], 'mail', 'hi', { client_id: 'c-1' }))).event;
      note(src);
      expect((await s.append(chat('user', ['peer1'], 'mail', 'hi', { client_id: 'c-1' }))).duplicate).toBe(true);
      for (const r of await s.appendMany([{ kind: 'x.a', by: 'user', data: {} }, { kind: 'x.b', by: 'user', data: {} }])) note(r.event);
      const claim = await s.claimDelivery({ actorId: 'peer1', sourceEventId: src.id, transport: 'pty' });
      if (claim.claimed) note(claim.event);
      note(await s.settleDelivery({ actorId: 'peer1', sourceEventId: src.id, state: 'accepted' }));
      const read = await s.inboxConsume({ actorId: 'peer1' });
      expect(read.event).not.toBeNull();
      note(read.event!);
      expect(heard.map((e) => e.id)).toEqual(written);
      expect(heard.map((e) => e.kind)).toEqual(['actor.add', 'chat.message', 'x.a', 'x.b', 'runtime.delivery', 'runtime.delivery', 'mail.read']);
    });
  });

  check('snapshot', 'snapshot counts and hashes every event in append order', () =>
    withStore({}, async (s) => {
      await s.append({ kind: 'x.a', by: 'user', data: {} });
      const a = await s.snapshot();
      const b = await s.snapshot();
      expect(a.event_count).toBe(1);
      expect(a.sha256).toBe(b.sha256);
      await s.append({ kind: 'x.a', by: 'user', data: {} });
      const c = await s.snapshot();
      expect(c.event_count).toBe(2);
      expect(c.sha256).not.toBe(a.sha256);
    }),
  );
}
