import { expect } from 'vitest';
import type { LedgerStore } from '../store.js';
import { actorAdd, chat, codeOf, type Check, type WithStore } from './helpers.js';

function notify(by: string, title: string, target: string | null = null, extra: Record<string, unknown> = {}) {
  return { kind: 'system.notify', by, data: { kind: 'info', title, message: '', target_actor_id: target, ...extra } };
}

/** A raw latest-state fact, as an older process or a recovery may have left it. */
async function fact(s: LedgerStore, actorId: string, sourceEventId: string, state: 'claimed' | 'accepted' | 'failed' | 'ambiguous') {
  await s.append({
    kind: 'runtime.delivery',
    by: 'system',
    data: { actor_id: actorId, source_event_id: sourceEventId, delivery_id: `delivery:${actorId}:${'a'.repeat(24)}`, state, transport: 'pty' },
  });
}

const ids = (events: ReadonlyArray<{ id: string }>) => events.map((e) => e.id);

/** Contract cases: tail, search, undelivered. */
export function readCases(check: Check, withStore: WithStore): void {
  check('tail', 'the latest events of some kinds before a point, oldest first, with has_more', () =>
    withStore({}, async (s) => {
      expect(s.tail({ limit: 5 })).toEqual({ events: [], has_more: false });
      const e: string[] = [];
      e.push((await s.append(actorAdd('peer1'))).event.id);
      for (let i = 0; i < 4; i++) {
        e.push((await s.append(chat('user', ['peer1'], 'send', `m${i}`))).event.id);
        e.push((await s.append(notify('system', `n${i}`))).event.id);
        e.push((await s.append({ kind: 'x.noise', by: 'user', data: { i } })).event.id);
      }
      // e: add, m0 n0 x0, m1 n1 x1, m2 n2 x2, m3 n3 x3
      expect(s.tail({ limit: 2 })).toEqual({ events: [s.findById(e[11]!), s.findById(e[12]!)], has_more: true });
      expect(ids(s.tail({ limit: 100 }).events)).toEqual(e);
      expect(s.tail({ limit: 100 }).has_more).toBe(false);
      expect(ids(s.tail({ limit: 100, kinds: [] }).events)).toEqual(e);
      const chats = s.tail({ kinds: ['chat.message'], limit: 3 });
      expect(ids(chats.events)).toEqual([e[4], e[7], e[10]]);
      expect(chats.has_more).toBe(true);
      const older = s.tail({ kinds: ['chat.message'], limit: 3, beforeEventId: e[4]! });
      expect(older).toMatchObject({ has_more: false });
      expect(ids(older.events)).toEqual([e[1]]);
      const talk = s.tail({ kinds: ['system.notify', 'chat.message', 'chat.message'], limit: 4, beforeEventId: e[12]! });
      expect(ids(talk.events)).toEqual([e[7], e[8], e[10], e[11]]);
      expect(talk.has_more).toBe(true);
      expect(s.tail({ limit: 3, beforeEventId: e[0]! })).toEqual({ events: [], has_more: false });
      expect(s.tail({ kinds: ['x.absent'], limit: 3 })).toEqual({ events: [], has_more: false });
      expect(await codeOf(() => s.tail({ limit: 3, beforeEventId: 'f'.repeat(32) }))).toBe('event_not_found');
      try {
        s.tail({ limit: 3, beforeEventId: 'f'.repeat(32) });
      } catch (err) {
        expect((err as { details?: unknown }).details).toMatchObject({ field: 'before_event_id' });
      }
    }),
  );

  check('search', 'text of messages, notices and open records, newest first, by kind, with has_more', () =>
    withStore({}, async (s) => {
      const a = (await s.append(chat('user', ['peer1'], 'send', 'Deploy the Needle service'))).event;
      await s.append(chat('user', ['peer1'], 'send', 'nothing here'));
      const n = (await s.append(notify('system', 'needle alert'))).event;
      const body = (await s.append(notify('system', 'build', null, { message: 'found a NEEDLE' }))).event;
      const open = (await s.append({ kind: 'x.vendor', by: 'user', data: { title: 'needles', text: 7 } })).event;
      await s.append({ kind: 'x.vendor', by: 'user', data: { note: 'needle in an unsearched field' } });
      const b = (await s.append(chat('peer1', ['user'], 'mail', 'needle again'))).event;
      expect(ids(s.search({ query: 'NeEdLe', limit: 10 }).events)).toEqual([b.id, open.id, body.id, n.id, a.id]);
      expect(s.search({ query: 'needle', limit: 5 }).has_more).toBe(false);
      expect(s.search({ query: 'needle', limit: 4 }).has_more).toBe(true);
      expect(ids(s.search({ query: 'needle', kinds: ['chat.message'], limit: 10 }).events)).toEqual([b.id, a.id]);
      const first = s.search({ query: 'needle', kinds: ['chat.message', 'system.notify'], limit: 2 });
      expect(ids(first.events)).toEqual([b.id, body.id]);
      expect(first.has_more).toBe(true);
      expect(ids(s.search({ query: 'needle', kinds: [], limit: 1 }).events)).toEqual([b.id]);
      expect(s.search({ query: 'haystack', limit: 10 })).toEqual({ events: [], has_more: false });
    }),
  );

  check('undelivered', 'pushes of the current generation still owed to an actor, and its legacy chat.read records', () =>
    withStore({}, async (s) => {
      for (const a of ['lead', 'peer1', 'peer2']) await s.append(actorAdd(a));
      await s.append(chat('user', ['peer1'], 'send', 'an earlier generation'));
      await s.append({ kind: 'chat.read', by: 'peer1', data: { actor_id: 'peer1', event_id: 'e'.repeat(32) } });
      const gen = (await s.append(actorAdd('peer1', '2026-11-30T09:00:00.000000Z'))).event;
      const owed = (await s.append(chat('user', ['peer1'], 'send', 'no fact yet'))).event;
      await s.append(chat('user', ['peer1'], 'mail', 'Mail is never pushed'));
      const accepted = (await s.append(chat('user', ['peer1'], 'request_reply', 'delivered'))).event;
      const failed = (await s.append(chat('user', ['@all'], 'send', 'failed, so owed again'))).event;
      const claimed = (await s.append(chat('lead', ['@peers'], 'send', 'in flight'))).event;
      const ambiguous = (await s.append(chat('user', ['peer1', 'peer2'], null, 'legacy row, maybe delivered'))).event;
      await s.append(chat('peer1', ['@all'], 'send', 'its own message'));
      await s.append(chat('user', ['@foreman'], 'send', 'for the foreman only'));
      await s.append(chat('user', ['peer2'], 'send', 'for someone else'));
      const read = (await s.append({ kind: 'chat.read', by: 'peer1', data: { actor_id: 'peer1', event_id: owed.id } })).event;
      const broadcast = (await s.append(notify('system', 'to everyone'))).event;
      await s.append(notify('system', 'to peer2', 'peer2'));
      const mine = (await s.append(notify('system', 'to peer1', 'peer1'))).event;
      const done = (await s.append(notify('system', 'to peer1, delivered', 'peer1'))).event;
      await fact(s, 'peer1', accepted.id, 'accepted');
      await fact(s, 'peer1', failed.id, 'claimed');
      await fact(s, 'peer1', failed.id, 'failed');
      await fact(s, 'peer1', claimed.id, 'claimed');
      await fact(s, 'peer1', ambiguous.id, 'ambiguous');
      await fact(s, 'peer1', done.id, 'accepted');
      await fact(s, 'peer2', owed.id, 'accepted'); // another recipient's fact changes nothing for peer1
      await fact(s, 'peer1', broadcast.id, 'failed');
      const view = s.undelivered({ actorId: 'peer1' });
      expect(view.generationEventId).toBe(gen.id);
      expect(ids(view.events)).toEqual([owed.id, failed.id, broadcast.id, mine.id]);
      expect(ids(view.legacyReads)).toEqual([read.id]);
      // The foreman is addressed by @foreman and @all; an actor never added (a peer) by the whole ledger.
      expect(s.undelivered({ actorId: 'lead' }).events.map((e) => e.data['text'] ?? e.data['title'])).toEqual([
        'failed, so owed again',
        'its own message',
        'for the foreman only',
        'to everyone',
      ]);
      const ghost = s.undelivered({ actorId: 'ghost' });
      expect(ghost.generationEventId).toBeUndefined();
      expect(ids(ghost.legacyReads)).toHaveLength(2);
      expect(ghost.events.map((e) => e.data['text'] ?? e.data['title'])).toEqual(['failed, so owed again', 'in flight', 'its own message', 'to everyone']);
    }),
  );
}
