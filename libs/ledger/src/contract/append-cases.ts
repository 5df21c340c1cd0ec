import { expect } from 'vitest';
import { EVENT_ID_RE, TS_RE } from '../event-format.js';
import type { LedgerEvent } from '../types.js';
import { actorAdd, chat, codeOf, type Check, type WithStore } from './helpers.js';

/** Contract cases: envelope, order, appendManyAtomic, tooLarge, invalidData, findById, findByPrefix, clientId, clientIdWindow, lookups. */
export function appendCases(check: Check, withStore: WithStore): void {
  check('envelope', 'append stamps a CCCS v1 envelope', () =>
    withStore({}, async (s) => {
      const { event, duplicate } = await s.append({ kind: 'group.create', by: 'user', data: { title: 't' } });
      expect(duplicate).toBe(false);
      expect(event.v).toBe(1);
      expect(event.id).toMatch(EVENT_ID_RE);
      expect(event.ts).toMatch(TS_RE);
      expect(event.group_id).toBe('g_contract0001');
      expect(event.scope_key).toBe('');
      expect(Object.keys(event)).toEqual(['v', 'id', 'ts', 'kind', 'group_id', 'scope_key', 'by', 'data']);
    }),
  );

  check('order', 'readers return append order forward and backward', () =>
    withStore({}, async (s) => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await s.append({ kind: 'x.test.n', by: 'user', data: { i } })).event.id);
      ids.push(...(await s.appendMany([1, 2, 3].map((i) => ({ kind: 'x.test.m', by: 'user', data: { i } })))).map((r) => r.event.id));
      expect([...s.readForward()].map((e) => e.id)).toEqual(ids);
      expect([...s.readBackward()].map((e) => e.id)).toEqual([...ids].reverse());
    }),
  );

  check('appendManyAtomic', 'appendMany with one invalid input writes nothing', () =>
    withStore({}, async (s) => {
      const code = await codeOf(s.appendMany([{ kind: 'x.a', by: 'user', data: {} }, { kind: 'mail.read', by: 'user', data: { actor_id: 'user', event_id: 'x' } }]));
      expect(code).toBe('invalid_event');
      expect([...s.readForward()]).toEqual([]);
    }),
  );

  check('tooLarge', 'a record over 256,000 bytes is rejected and nothing is written', () =>
    withStore({}, async (s) => {
      const code = await codeOf(s.append({ kind: 'x.big', by: 'user', data: { blob: 'a'.repeat(300_000) } }));
      expect(code).toBe('event_too_large');
      expect([...s.readForward()]).toEqual([]);
      await s.append({ kind: 'x.small', by: 'user', data: {} });
      expect([...s.readForward()].length).toBe(1);
    }),
  );

  check('invalidData', 'known kinds validate their data', () =>
    withStore({}, async (s) => {
      // A kind only known at run time (a client's input) is checked by its schema there.
      const dynamicKind: string = 'runtime.delivery';
      expect(await codeOf(s.append({ kind: dynamicKind, by: 'system', data: { state: 'nope' } }))).toBe('invalid_event');
      expect(await codeOf(s.append({ kind: '', by: 'user', data: {} }))).toBe('invalid_event');
      expect([...s.readForward()]).toEqual([]);
    }),
  );

  check('findById', 'events are found by id', () =>
    withStore({}, async (s) => {
      const { event } = await s.append({ kind: 'x.a', by: 'user', data: { n: 1 } });
      expect(s.findById(event.id)).toEqual(event);
      expect(s.findById('0'.repeat(32))).toBeUndefined();
    }),
  );

  check('findByPrefix', 'unique prefixes resolve, ambiguous ones throw', () =>
    withStore({}, async (s) => {
      const events: LedgerEvent[] = [];
      for (let i = 0; i < 17; i++) events.push((await s.append({ kind: 'x.a', by: 'user', data: { i } })).event);
      // 17 ids over 16 leading hex digits: at least two share the first character.
      const byFirst = new Map<string, LedgerEvent[]>();
      for (const e of events) byFirst.set(e.id[0]!, [...(byFirst.get(e.id[0]!) ?? []), e]);
      const shared = [...byFirst.values()].find((l) => l.length > 1)!;
      expect(await codeOf(() => s.findByPrefix(shared[0]!.id[0]!))).toBe('ambiguous_event_id');
      expect(s.findByPrefix(events[3]!.id.slice(0, 31))?.id).toBe(events[3]!.id);
      expect(s.findByPrefix('not-hex')).toBeUndefined();
    }),
  );

  check('clientId', 'a client_id duplicate returns the original event', () =>
    withStore({}, async (s) => {
      const first = await s.append(chat('user', ['peer1'], 'send', 'hi', { client_id: 'c-1' }));
      const again = await s.append(chat('user', ['peer1'], 'send', 'hi again', { client_id: 'c-1' }));
      expect(again.duplicate).toBe(true);
      expect(again.event).toEqual(first.event);
      const other = await s.append(chat('peer2', ['peer1'], 'send', 'hi', { client_id: 'c-1' }));
      expect(other.duplicate).toBe(false);
      const [a, b] = await s.appendMany([chat('user', ['peer1'], 'send', 'x', { client_id: 'c-2' }), chat('user', ['peer1'], 'send', 'y', { client_id: 'c-2' })]);
      expect(b!.duplicate).toBe(true);
      expect(b!.event.id).toBe(a!.event.id);
      expect([...s.readForward()].length).toBe(3);
    }),
  );

  check('clientIdWindow', 'client_id dedupe lasts at least 5 minutes, then expires', async () => {
    let now = Date.parse('2026-11-30T10:00:00Z');
    await withStore({ clock: () => new Date(now) }, async (s) => {
      const first = await s.append(chat('user', ['peer1'], 'send', 'hi', { client_id: 'c-1' }));
      now += 5 * 60_000;
      expect((await s.append(chat('user', ['peer1'], 'send', 'hi', { client_id: 'c-1' }))).event.id).toBe(first.event.id);
      now += 60 * 60_000;
      expect((await s.append(chat('user', ['peer1'], 'send', 'hi', { client_id: 'c-1' }))).duplicate).toBe(false);
    });
  });

  check('lookups', 'ordinals, client_id, first cancel and persisted cursor lookups', async () => {
    let now = Date.parse('2026-11-30T10:00:00Z');
    await withStore({ clock: () => new Date(now) }, async (s) => {
      await s.append(actorAdd('peer1'));
      const a = (await s.append(chat('user', ['peer1'], 'mail', 'a', { client_id: 'k' }))).event;
      const b = (await s.append(chat('user', ['peer1'], 'request_reply', 'b'))).event;
      expect(s.ordinalOf(a.id)! < s.ordinalOf(b.id)!).toBe(true);
      expect(s.ordinalOf('0'.repeat(32))).toBeUndefined();
      expect(s.findByClientId('user', 'k')?.id).toBe(a.id);
      expect(s.findByClientId('peer1', 'k')).toBeUndefined();
      expect(s.findReplyRequestCancel(b.id)).toBeUndefined();
      const c1 = (await s.append({ kind: 'chat.reply_request.cancelled', by: 'user', data: { source_event_id: b.id } })).event;
      await s.append({ kind: 'chat.reply_request.cancelled', by: 'user', data: { source_event_id: b.id } });
      expect(s.findReplyRequestCancel(b.id)?.id).toBe(c1.id);
      expect(s.mailCursorOf('peer1')).toBeUndefined();
      await s.inboxConsume({ actorId: 'peer1' });
      expect(s.mailCursorOf('peer1')?.event_id).toBe(a.id);
      now += 60 * 60_000;
      expect(s.findByClientId('user', 'k')).toBeUndefined();
      const again = (await s.append(chat('user', ['peer1'], 'mail', 'again', { client_id: 'k' }))).event;
      expect(s.findByClientId('user', 'k')?.id).toBe(again.id);
    });
  });
}
