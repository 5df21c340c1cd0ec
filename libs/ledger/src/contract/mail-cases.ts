import { expect } from 'vitest';
import { actorAdd, chat, codeOf, type Check, type WithStore } from './helpers.js';

/** Contract cases: inbox, inboxRecipients, inboxGeneration, history. */
export function mailCases(check: Check, withStore: WithStore): void {
  check('inbox', 'peek is non-consuming; consume returns, records mail.read and advances', () =>
    withStore({}, async (s) => {
      await s.append(actorAdd('peer1'));
      const m1 = (await s.append(chat('user', ['peer1'], 'mail', 'one'))).event;
      await s.append(chat('user', ['peer1'], 'send', 'not mail'));
      const m2 = (await s.append(chat('user', ['peer1'], 'mail', 'two'))).event;
      expect(s.inboxPeek({ actorId: 'peer1' }).messages.map((e) => e.id)).toEqual([m1.id, m2.id]);
      expect(s.inboxPeek({ actorId: 'peer1' }).messages.length).toBe(2);
      expect(s.inboxCount({ actorId: 'peer1' })).toBe(2);
      const r1 = await s.inboxConsume({ actorId: 'peer1', limit: 1 });
      expect(r1.messages.map((e) => e.id)).toEqual([m1.id]);
      expect(r1.event?.kind).toBe('mail.read');
      expect(r1.event?.data).toMatchObject({ actor_id: 'peer1', event_id: m1.id });
      expect(r1.cursor.event_id).toBe(m1.id);
      expect(s.inboxPeek({ actorId: 'peer1' }).messages.map((e) => e.id)).toEqual([m2.id]);
      expect(s.inboxPeek({ actorId: 'peer1' }).cursor).toEqual({ event_id: m1.id, ts: m1.ts });
      await s.inboxConsume({ actorId: 'peer1' });
      const empty = await s.inboxConsume({ actorId: 'peer1' });
      expect(empty.messages).toEqual([]);
      expect(empty.event).toBeNull();
      expect(empty.cursor.event_id).toBe(m2.id);
    }),
  );

  check('inboxRecipients', 'recipient matching: id, @all, role selectors, never the sender', () =>
    withStore({}, async (s) => {
      for (const a of ['lead', 'peer1', 'peer2', 'voice']) await s.append(actorAdd(a));
      const all = (await s.append(chat('peer1', ['@all'], 'mail', 'all'))).event;
      const peers = (await s.append(chat('user', ['@peers'], 'mail', 'peers'))).event;
      const fore = (await s.append(chat('peer2', ['@foreman'], 'mail', 'foreman'))).event;
      const direct = (await s.append(chat('user', ['voice'], 'mail', 'voice only'))).event;
      await s.append(chat('peer1', ['user'], 'send', 'to the human'));
      const ids = (aid: string) => s.inboxPeek({ actorId: aid }).messages.map((e) => e.id);
      expect(ids('peer1')).toEqual([peers.id]);
      expect(ids('peer2')).toEqual([all.id, peers.id]);
      expect(ids('lead')).toEqual([all.id, fore.id]);
      expect(ids('voice')).toEqual([direct.id]);
      expect(s.inboxCount({ actorId: 'peer2' })).toBe(2);
      expect(s.inboxCount({ actorId: 'lead' })).toBe(2);
      // One message reaching peer1 through three tokens is one unread message.
      const multi = (await s.append(chat('user', ['peer1', '@all', '@peers'], 'mail', 'multi'))).event;
      expect(s.inboxCount({ actorId: 'peer1' })).toBe(2);
      expect(ids('peer1')).toEqual([peers.id, multi.id]);
    }),
  );

  check('inboxGeneration', 'a re-added actor starts a new generation', () =>
    withStore({}, async (s) => {
      await s.append(actorAdd('peer1'));
      await s.append(chat('user', ['peer1'], 'mail', 'old generation'));
      await s.append(actorAdd('peer1', '2026-11-30T09:00:00.000000Z'));
      const fresh = (await s.append(chat('user', ['peer1'], 'mail', 'new generation'))).event;
      expect(s.inboxPeek({ actorId: 'peer1' }).messages.map((e) => e.id)).toEqual([fresh.id]);
      expect(s.messageHistory({ actorId: 'peer1' }).messages.map((e) => e.id)).toEqual([fresh.id]);
    }),
  );

  check('history', 'newest first, paged, filtered by mode and query, by or to the actor', () =>
    withStore({}, async (s) => {
      await s.append(actorAdd('peer1'));
      const a = (await s.append(chat('user', ['peer1'], 'send', 'Alpha report'))).event;
      await s.append(chat('user', ['peer2'], 'send', 'not for peer1'));
      const b = (await s.append(chat('peer1', ['user'], 'send', 'beta from peer1'))).event;
      const c = (await s.append(chat('user', ['peer1'], 'mail', 'gamma mail'))).event;
      const d = (await s.append(chat('user', ['@all'], 'request_reply', 'delta alpha'))).event;
      await s.append({ kind: 'x.noise', by: 'user', data: {} });
      const page1 = s.messageHistory({ actorId: 'peer1', limit: 2 });
      expect(page1.messages.map((e) => e.id)).toEqual([d.id, c.id]);
      expect(page1.has_more).toBe(true);
      const page2 = s.messageHistory({ actorId: 'peer1', limit: 2, beforeEventId: c.id });
      expect(page2.messages.map((e) => e.id)).toEqual([b.id, a.id]);
      expect(page2.has_more).toBe(false);
      expect(s.messageHistory({ actorId: 'peer1', mode: 'mail' }).messages.map((e) => e.id)).toEqual([c.id]);
      expect(s.messageHistory({ actorId: 'peer1', query: 'ALPHA' }).messages.map((e) => e.id)).toEqual([d.id, a.id]);
      expect(await codeOf(() => s.messageHistory({ actorId: 'peer1', beforeEventId: 'f'.repeat(32) }))).toBe('event_not_found');
      // read-only: nothing appended
      expect([...s.readForward()].filter((e) => e.kind === 'mail.read')).toEqual([]);
    }),
  );
}
