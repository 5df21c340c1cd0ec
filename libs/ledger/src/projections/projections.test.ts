import { describe, expect, it } from 'vitest';
import type { LedgerEvent } from '../types.js';
import { assertSettleAllowed, claimRefusal, deliveryIdFor, deliveryStatesOf } from './delivery.js';
import { messageHistoryOf } from './history.js';
import { inboxUnread, mailWatermark } from './inbox.js';
import { replyObligationsOf } from './obligations.js';
import { recipientTokens, tokensAddressing } from './recipients.js';

let n = 0;
function ev(kind: string, by: string, data: Record<string, unknown>): LedgerEvent {
  n += 1;
  return { v: 1, id: n.toString(16).padStart(32, '0'), ts: '2026-11-30T08:00:00.000000Z', kind, group_id: 'g', scope_key: '', by, data };
}
const add = (id: string) => ev('actor.add', 'user', { actor: { id, created_at: 'c' } });
const msg = (by: string, to: string[], mode: string | null, text = 't', extra: Record<string, unknown> = {}) =>
  ev('chat.message', by, { text, message_mode: mode, to, ...extra });

describe('pure projections (no disk)', () => {
  it('delivery_id matches the reference formula and a reference-written fact', () => {
    expect(deliveryIdFor('g_30e7eb3af8cf', 'peer1', '2026-11-30T08:42:38.902098Z', '3a1e7837925b493fa696abf137734a58')).toBe(
      'delivery:peer1:7a39a43abc9a06a7797c296e',
    );
  });

  it('delivery state machine', () => {
    expect(claimRefusal(undefined, false)).toBeUndefined();
    expect(claimRefusal('failed', false)).toBeUndefined();
    expect(claimRefusal('claimed', true)).toBe('in_progress');
    expect(claimRefusal('accepted', true)).toBe('already_accepted');
    expect(claimRefusal('ambiguous', false)).toBe('ambiguous');
    expect(claimRefusal('ambiguous', true)).toBeUndefined();
    for (const next of ['accepted', 'failed', 'ambiguous'] as const) {
      expect(() => assertSettleAllowed('claimed', next, 'd')).not.toThrow();
      for (const from of [undefined, 'accepted', 'failed', 'ambiguous'] as const) {
        expect(() => assertSettleAllowed(from, next, 'd')).toThrow(expect.objectContaining({ code: 'illegal_delivery_transition' }));
      }
    }
    expect(() => assertSettleAllowed('claimed', 'claimed', 'd')).toThrow();
  });

  it('latest delivery state per recipient follows append order', () => {
    const src = msg('user', ['peer1', 'peer2'], 'send');
    const d = (actor: string, state: string) => ev('runtime.delivery', 'system', { actor_id: actor, source_event_id: src.id, delivery_id: `delivery:${actor}:${'0'.repeat(24)}`, state, transport: 'pty' });
    const events = [src, d('peer2', 'claimed'), d('peer1', 'claimed'), d('peer1', 'accepted'), d('peer2', 'failed')];
    expect(deliveryStatesOf(events, src.id).map((f) => [f.actor_id, f.state])).toEqual([
      ['peer1', 'accepted'],
      ['peer2', 'failed'],
    ]);
  });

  it('recipient tokens and selectors', () => {
    expect(recipientTokens({ to: [] })).toEqual(['@all']);
    expect(recipientTokens({})).toEqual(['@all']);
    expect(recipientTokens({ to: ['@user', 'user', 'peer1'] })).toEqual(['user', 'peer1']);
    expect(tokensAddressing('lead', 'foreman')).toEqual(['lead', '@all', '@foreman']);
    expect(tokensAddressing('p', 'peer')).toEqual(['p', '@all', '@peers']);
    expect(tokensAddressing('v', 'internal')).toEqual(['v']);
  });

  it('inbox: generation boundary, the later of cursor and mail.read, sender exclusion', () => {
    const old = msg('user', ['peer1'], 'mail');
    const gen = add('peer1');
    const m1 = msg('user', ['peer1'], 'mail');
    const own = msg('peer1', ['@all'], 'mail');
    const m2 = msg('user', ['@all'], 'mail');
    const read = ev('mail.read', 'peer1', { actor_id: 'peer1', event_id: m1.id });
    const m3 = msg('user', ['peer1'], 'mail');
    const events = [old, gen, m1, own, m2, read, m3];
    const q = { actorId: 'peer1', role: 'peer' as const, limit: 10 };
    expect(inboxUnread(events, q).messages.map((e) => e.id)).toEqual([m2.id, m3.id]);
    expect(inboxUnread(events, { ...q, cursorEventId: m2.id }).messages.map((e) => e.id)).toEqual([m3.id]);
    // A cursor pointing before the generation (old) is ignored; the mail.read still counts.
    expect(inboxUnread(events, { ...q, cursorEventId: old.id }).messages.map((e) => e.id)).toEqual([m2.id, m3.id]);
    expect(mailWatermark(events, 'peer1', undefined)).toBe(2);
  });

  it('history: newest first with paging; obligations with a cancel race', () => {
    const a = msg('user', ['peer1'], 'send', 'a');
    const b = msg('peer1', ['user'], 'send', 'b');
    const rr = msg('user', ['peer1', 'peer2'], 'request_reply', 'q');
    const reply2 = msg('peer2', ['user'], 'send', 'r', { reply_to: rr.id });
    const cancel = ev('chat.reply_request.cancelled', 'user', { source_event_id: rr.id });
    const reply1 = msg('peer1', ['user'], 'send', 'late', { reply_to: rr.id });
    const events = [a, b, rr, reply2, cancel, reply1];
    const page = messageHistoryOf(events, { actorId: 'peer1', role: 'peer', limit: 2 });
    expect(page.messages.map((e) => e.id)).toEqual([reply1.id, rr.id]);
    expect(page.has_more).toBe(true);
    expect(replyObligationsOf(events, rr.id).map((o) => [o.actor_id, o.status, o.closed_by_event_id])).toEqual([
      ['peer1', 'cancelled', cancel.id],
      ['peer2', 'replied', reply2.id],
    ]);
  });
});
