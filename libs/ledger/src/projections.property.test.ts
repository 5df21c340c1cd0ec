import fc from 'fast-check';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openGroupLedger } from './open-ledger.js';
import { deliveryStatesOf } from './projections/delivery.js';
import { messageHistoryOf, type HistoryMode } from './projections/history.js';
import { inboxUnread, inboxUnreadCount } from './projections/inbox.js';
import { replyObligationsOf } from './projections/obligations.js';
import { searchOf, tailOf } from './projections/pages.js';
import { undeliveredOf } from './projections/undelivered.js';
import { roleOrPeer } from './projections/recipients.js';
import { TempHomes } from './test-support/homes.js';
import type { AppendInput, LedgerEvent, RoleOf } from './types.js';

const homes = new TempHomes();
afterAll(() => homes.cleanup());
const G = 'g_property0001';
const ACTORS = ['lead', 'peer1', 'peer2', 'voice'];
const roleOf: RoleOf = (a) => (a === 'lead' ? 'foreman' : a === 'voice' ? 'internal' : 'peer');
const WORDS = ['alpha', 'beta', 'gamma', 'Delta'];

type Op =
  | { t: 'add'; actor: string }
  | { t: 'chat'; by: string; to: string[]; mode: 'send' | 'mail' | 'request_reply' | null; reply: number | null; word: string; clientId: string | null }
  | { t: 'read'; actor: string; target: number }
  | { t: 'cancel'; by: string; target: number }
  | { t: 'delivery'; actor: string; target: number; state: 'claimed' | 'accepted' | 'failed' | 'ambiguous' }
  | { t: 'notify'; target: string | null; word: string }
  | { t: 'legacyRead'; actor: string; target: number };

const principal = fc.constantFrom('user', ...ACTORS);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ t: fc.constant('add' as const), actor: fc.constantFrom(...ACTORS) }) },
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant('chat' as const),
      by: principal,
      to: fc.subarray(['lead', 'peer1', 'peer2', 'voice', '@all', '@peers', '@foreman', 'user']),
      mode: fc.constantFrom('send' as const, 'mail' as const, 'request_reply' as const, null),
      reply: fc.option(fc.nat(60), { nil: null }),
      word: fc.constantFrom(...WORDS),
      clientId: fc.option(fc.constantFrom('c1', 'c2'), { nil: null, freq: 5 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('read' as const), actor: fc.constantFrom(...ACTORS), target: fc.nat(60) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('cancel' as const), by: principal, target: fc.nat(60) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('delivery' as const),
      actor: fc.constantFrom(...ACTORS),
      target: fc.nat(60),
      state: fc.constantFrom('claimed' as const, 'accepted' as const, 'failed' as const, 'ambiguous' as const),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant('notify' as const), target: fc.option(fc.constantFrom(...ACTORS), { nil: null }), word: fc.constantFrom(...WORDS) }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('legacyRead' as const), actor: fc.constantFrom(...ACTORS), target: fc.nat(60) }) },
);

function toInput(op: Op, ids: string[]): AppendInput {
  const ref = (i: number) => ids[i % Math.max(ids.length, 1)] ?? 'f'.repeat(32);
  switch (op.t) {
    case 'add':
      return { kind: 'actor.add', by: 'user', data: { actor: { id: op.actor, created_at: `c${ids.length}` } } };
    case 'chat':
      return {
        kind: 'chat.message',
        by: op.by,
        data: { text: `${op.word} ${ids.length}`, message_mode: op.mode, to: op.to, reply_to: op.reply === null ? null : ref(op.reply), ...(op.clientId ? { client_id: op.clientId } : {}) },
      };
    case 'read':
      return { kind: 'mail.read', by: op.actor, data: { actor_id: op.actor, event_id: ref(op.target) } };
    case 'cancel':
      return { kind: 'chat.reply_request.cancelled', by: op.by, data: { source_event_id: ref(op.target) } };
    case 'delivery':
      return {
        kind: 'runtime.delivery',
        by: 'system',
        data: { actor_id: op.actor, source_event_id: ref(op.target), delivery_id: `delivery:${op.actor}:${'a'.repeat(24)}`, state: op.state, transport: 'pty' },
      };
    case 'notify':
      return { kind: 'system.notify', by: 'system', data: { kind: 'info', title: `${op.word} ${ids.length}`, target_actor_id: op.target } };
    case 'legacyRead':
      return { kind: 'chat.read', by: op.actor, data: { actor_id: op.actor, event_id: ref(op.target) } };
  }
}

interface QuerySpec {
  kinds: string[];
  limit: number;
  mode: HistoryMode;
  query: string | undefined;
  before: number | undefined;
  cursor: number | undefined;
}

const queryArb: fc.Arbitrary<QuerySpec> = fc.record({
  kinds: fc.subarray(['chat.message', 'system.notify', 'chat.read', 'runtime.delivery', 'x.none']),
  limit: fc.integer({ min: 1, max: 6 }),
  mode: fc.constantFrom<HistoryMode>('all', 'send', 'mail', 'request_reply'),
  query: fc.option(fc.constantFrom('alpha', 'DELTA', 'zzz'), { nil: undefined }),
  before: fc.option(fc.nat(60), { nil: undefined }),
  cursor: fc.option(fc.nat(60), { nil: undefined }),
});

function compare(store: Awaited<ReturnType<typeof openGroupLedger>>, events: LedgerEvent[], q: QuerySpec, home: string) {
  const ids = events.map((e) => e.id);
  const cursorId = q.cursor === undefined || ids.length === 0 ? undefined : ids[q.cursor % ids.length];
  const cursorFile = join(home, 'groups', G, 'state/read_cursors.json');
  if (cursorId) writeFileSync(cursorFile, JSON.stringify({ schema: 1, cursors: { peer1: { event_id: cursorId, ts: '', updated_at: '' } } }));
  else rmSync(cursorFile, { force: true });
  for (const actorId of [...ACTORS, 'ghost']) {
    const role = roleOrPeer(roleOf, actorId);
    const scan = inboxUnread(events, { actorId, role, cursorEventId: actorId === 'peer1' ? cursorId : undefined, limit: q.limit });
    expect(store.inboxPeek({ actorId, limit: q.limit })).toEqual(scan);
    expect(store.inboxCount({ actorId })).toBe(inboxUnreadCount(events, { actorId, role, cursorEventId: actorId === 'peer1' ? cursorId : undefined }));
    const before = q.before === undefined || ids.length === 0 ? undefined : ids[q.before % ids.length];
    const hq = { actorId, mode: q.mode, query: q.query, beforeEventId: before, limit: q.limit };
    expect(store.messageHistory(hq)).toEqual(messageHistoryOf(events, { ...hq, role }));
    expect(store.undelivered({ actorId })).toEqual(undeliveredOf(events, actorId, role));
  }
  const before = q.before === undefined || ids.length === 0 ? undefined : ids[q.before % ids.length];
  const tq = { kinds: q.kinds, beforeEventId: before, limit: q.limit };
  expect(store.tail(tq)).toEqual(tailOf(events, tq));
  const sq = { query: q.query ?? 'a', kinds: q.kinds, limit: q.limit };
  expect(store.search(sq)).toEqual(searchOf(events, sq));
  for (const e of events) {
    if (e.kind !== 'chat.message') continue;
    expect(store.replyObligations(e.id)).toEqual(replyObligationsOf(events, e.id));
    expect(store.deliveryState(e.id)).toEqual(deliveryStatesOf(events, e.id));
  }
}

describe('index-backed projections equal full-scan projections', () => {
  it('for random event sequences, incrementally indexed and rebuilt', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 45 }), fc.array(queryArb, { minLength: 1, maxLength: 3 }), async (ops, queries) => {
        const home = homes.make('ledger-prop-');
        const ids: string[] = [];
        {
          // Half the runs index every batch on the background writer thread, half inline.
          const backgroundIndexAt = ops.length % 2 === 0 ? 1 : 1_000_000;
          await using store = await openGroupLedger({ home, groupId: G, roleOf, historyQueryPage: 2, backgroundIndexAt });
          for (const op of ops) ids.push((await store.append(toInput(op, ids))).event.id);
          const events = [...store.readForward()];
          for (const q of queries) compare(store, events, q, home);
        }
        rmSync(join(home, 'groups', G, 'state/ledger/ts-index.sqlite3'), { force: true });
        await using reopened = await openGroupLedger({ home, groupId: G, roleOf });
        expect(reopened.integrity().indexRebuilt).not.toBeNull();
        const events = [...reopened.readForward()];
        for (const q of queries) compare(reopened, events, q, home);
        rmSync(home, { recursive: true, force: true });
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
