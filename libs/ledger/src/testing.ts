import { describe, expect, it } from 'vitest';
import { EVENT_ID_RE, TS_RE } from './event-format.js';
import { deliveryIdFor } from './projections/delivery.js';
import type { LedgerStore } from './store.js';
import type { Clock, LedgerEvent, RoleOf } from './types.js';

export interface ContractOpenOptions {
  groupId: string;
  clock?: Clock;
  roleOf?: RoleOf;
}

export interface LedgerContractOptions {
  /** Open a fresh, empty store; the suite closes it. */
  open: (opts: ContractOpenOptions) => Promise<LedgerStore>;
  /** Case name → reason it does not apply to this implementation. */
  skip?: Partial<Record<ContractCase, string>>;
}

export const CONTRACT_CASES = [
  'envelope',
  'order',
  'appendManyAtomic',
  'tooLarge',
  'invalidData',
  'findById',
  'findByPrefix',
  'clientId',
  'clientIdWindow',
  'inbox',
  'inboxRecipients',
  'inboxGeneration',
  'history',
  'obligations',
  'delivery',
  'strandedClaims',
  'follow',
  'snapshot',
  'lookups',
] as const;
export type ContractCase = (typeof CONTRACT_CASES)[number];

const roles: RoleOf = (aid) => (aid === 'lead' ? 'foreman' : aid === 'voice' ? 'internal' : 'peer');

function actorAdd(id: string, createdAt = '2026-11-30T08:00:00.000000Z') {
  return { kind: 'actor.add', by: 'user', data: { actor: { v: 1, id, title: id, created_at: createdAt } } };
}

function chat(by: string, to: string[], mode: 'send' | 'mail' | 'request_reply' | null, text: string, extra: Record<string, unknown> = {}) {
  return { kind: 'chat.message', by, data: { text, format: 'plain', message_mode: mode, to, ...extra } };
}

async function codeOf(p: Promise<unknown> | (() => unknown)): Promise<string | undefined> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
}

/**
 * The LedgerStore contract: every implementation (file store, in-memory store) must pass it.
 * Each case that does not apply is skipped with its stated reason.
 */
export function describeLedgerContract(name: string, options: LedgerContractOptions): void {
  const check = (c: ContractCase, title: string, body: () => Promise<void>) => {
    const reason = options.skip?.[c];
    if (reason) it.skip(`${c}: ${title} (skipped: ${reason})`, body);
    else it(`${c}: ${title}`, body);
  };
  const withStore = async (opts: Partial<ContractOpenOptions>, body: (s: LedgerStore) => Promise<void>) => {
    const store = await options.open({ groupId: 'g_contract0001', roleOf: roles, ...opts });
    try {
      await body(store);
    } finally {
      await store.close();
    }
  };

  describe(`LedgerStore contract: ${name}`, () => {
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
        expect(await codeOf(s.append({ kind: 'runtime.delivery', by: 'system', data: { state: 'nope' } }))).toBe('invalid_event');
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

    check('inbox', 'peek is non-consuming; consume returns, records mail.read and advances', () =>
      withStore({}, async (s) => {
        await s.append(actorAdd('peer1'));
        const m1 = (await s.append(chat('user', ['peer1'], 'mail', 'one'))).event;
        await s.append(chat('user', ['peer1'], 'send', 'not mail'));
        const m2 = (await s.append(chat('user', ['peer1'], 'mail', 'two'))).event;
        expect(s.inboxPeek({ actorId: 'peer1' }).messages.map((e) => e.id)).toEqual([m1.id, m2.id]);
        expect(s.inboxPeek({ actorId: 'peer1' }).messages.length).toBe(2);
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

    check('obligations', 'open / replied / cancelled with append order deciding races', () =>
      withStore({}, async (s) => {
        const src = (await s.append(chat('user', ['peer1', 'peer2', 'peer3'], 'request_reply', 'please answer'))).event;
        const status = () => Object.fromEntries(s.replyObligations(src.id).map((o) => [o.actor_id, o.status]));
        expect(status()).toEqual({ peer1: 'open', peer2: 'open', peer3: 'open' });
        await s.append(chat('peer1', ['user'], 'send', 'answer', { reply_to: src.id }));
        await s.append({ kind: 'chat.reply_request.cancelled', by: 'peer2', data: { source_event_id: src.id } }); // not the sender: ignored
        expect(status()).toEqual({ peer1: 'replied', peer2: 'open', peer3: 'open' });
        await s.append({ kind: 'chat.reply_request.cancelled', by: 'user', data: { source_event_id: src.id } });
        await s.append(chat('peer2', ['user'], 'mail', 'late answer', { reply_to: src.id }));
        expect(status()).toEqual({ peer1: 'replied', peer2: 'cancelled', peer3: 'cancelled' });
        const plain = (await s.append(chat('user', ['peer1'], 'send', 'no obligation'))).event;
        expect(s.replyObligations(plain.id)).toEqual([]);
      }),
    );

    check('delivery', 'claimed → accepted | failed | ambiguous, deterministic delivery_id', () =>
      withStore({}, async (s) => {
        await s.append(actorAdd('peer1', '2026-11-30T08:42:38.902098Z'));
        const src = (await s.append(chat('user', ['peer1'], 'send', 'hello'))).event;
        const claim = await s.claimDelivery({ actorId: 'peer1', sourceEventId: src.id, transport: 'pty' });
        expect(claim.claimed).toBe(true);
        expect(claim.delivery_id).toBe(deliveryIdFor(s.groupId, 'peer1', '2026-11-30T08:42:38.902098Z', src.id));
        const again = await s.claimDelivery({ actorId: 'peer1', sourceEventId: src.id, transport: 'pty' });
        expect(again).toMatchObject({ claimed: false, refusal: 'in_progress' });
        await s.settleDelivery({ actorId: 'peer1', sourceEventId: src.id, state: 'failed', reason: 'pty closed' });
        expect(s.deliveryState(src.id).map((f) => f.state)).toEqual(['failed']);
        expect(await codeOf(s.settleDelivery({ actorId: 'peer1', sourceEventId: src.id, state: 'accepted' }))).toBe('illegal_delivery_transition');
        const retry = await s.claimDelivery({ actorId: 'peer1', sourceEventId: src.id, transport: 'pty' });
        expect(retry.claimed && retry.delivery_id).toBe(claim.delivery_id);
        await s.settleDelivery({ actorId: 'peer1', sourceEventId: src.id, state: 'accepted' });
        expect(await s.claimDelivery({ actorId: 'peer1', sourceEventId: src.id, transport: 'pty' })).toMatchObject({ claimed: false, refusal: 'already_accepted' });
        const [fact] = s.deliveryState(src.id);
        expect(fact).toMatchObject({ actor_id: 'peer1', state: 'accepted', delivery_id: claim.delivery_id, transport: 'pty' });
        expect(await codeOf(s.settleDelivery({ actorId: 'peer9', sourceEventId: src.id, state: 'accepted' }))).toBe('illegal_delivery_transition');
      }),
    );

    check('strandedClaims', 'startup settles leftover claims to ambiguous; ambiguous needs force', () =>
      withStore({}, async (s) => {
        await s.append(actorAdd('peer1'));
        const src = (await s.append(chat('user', ['peer1', 'peer2'], 'send', 'hello'))).event;
        await s.claimDelivery({ actorId: 'peer1', sourceEventId: src.id, transport: 'pty' });
        await s.claimDelivery({ actorId: 'peer2', sourceEventId: src.id, transport: 'pty' });
        await s.settleDelivery({ actorId: 'peer2', sourceEventId: src.id, state: 'accepted' });
        const settled = await s.settleStrandedClaims();
        expect(settled.map((e) => [e.data['actor_id'], e.data['state']])).toEqual([['peer1', 'ambiguous']]);
        expect(s.deliveryState(src.id).map((f) => [f.actor_id, f.state])).toEqual([['peer1', 'ambiguous'], ['peer2', 'accepted']]);
        expect(await s.settleStrandedClaims()).toEqual([]);
        expect(await s.claimDelivery({ actorId: 'peer1', sourceEventId: src.id, transport: 'pty' })).toMatchObject({ claimed: false, refusal: 'ambiguous' });
        expect((await s.claimDelivery({ actorId: 'peer1', sourceEventId: src.id, transport: 'pty', forceAmbiguous: true })).claimed).toBe(true);
      }),
    );

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
  });
}
