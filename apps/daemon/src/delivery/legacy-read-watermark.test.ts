import type { CCCSEventV1 } from '@cccc/ipc-protocol';
import { describe, expect, it } from 'vitest';
import { consumedUnderWatermark, legacyReadTarget, legacyReadWatermark, notifyReferences, withoutConsumedLegacyNudges } from './legacy-read-watermark.js';

let n = 0;
const ev = (kind: string, data: Record<string, unknown>, id = `e${++n}`): CCCSEventV1 =>
  ({ v: 1, id, ts: '2026-11-30T09:00:00.000000Z', kind, group_id: 'g_1', scope_key: '', by: 'system', data }) as CCCSEventV1;
const nudge = (id: string, extra: Record<string, unknown> = {}) => ev('system.notify', { kind: 'nudge', target_actor_id: 'peer1', message: id, ...extra }, id);
const read = (id: string, target: string, actorId = 'peer1') => ev('chat.read', { actor_id: actorId, event_id: target }, id);

/** Walks a ledger the way recovery does and returns the ids it would queue again. */
function recover(ledger: CCCSEventV1[], actorId = 'peer1'): string[] {
  const positionOf = (id: string) => {
    const i = ledger.findIndex((e) => e.id === id);
    return i < 0 ? undefined : i + 1;
  };
  let pending: CCCSEventV1[] = [];
  let reads: Array<{ id: string; targetId: string }> = [];
  let addId: string | undefined;
  for (const e of ledger) {
    if (e.kind === 'actor.add' && (e.data['actor'] as { id: string }).id === actorId) {
      pending = [];
      reads = [];
      addId = e.id;
    }
    const target = legacyReadTarget(e, actorId);
    if (target) reads.push({ id: e.id, targetId: target });
    if (e.kind === 'system.notify' || e.kind === 'chat.message') pending.push(e);
  }
  return withoutConsumedLegacyNudges(pending, reads, addId, positionOf).map((e) => e.id);
}

const add = (id: string) => ev('actor.add', { actor: { id: 'peer1' } }, id);

describe('legacy chat.read watermark (§8.6 recovery)', () => {
  it('is an inclusive watermark, not a per-event receipt: every earlier nudge is consumed', () => {
    const ledger = [add('add'), nudge('n1'), nudge('n2'), nudge('n3'), read('r', 'n2'), nudge('n4')];
    // n1 and n2 are at or before the watermark (n2); n3 came later and names nothing old.
    expect(recover(ledger)).toEqual(['n3', 'n4']);
  });

  it('uses the furthest valid referenced position across several records', () => {
    const ledger = [add('add'), nudge('n1'), nudge('n2'), read('r1', 'n2'), read('r2', 'n1'), nudge('n3')];
    expect(recover(ledger)).toEqual(['n3']);
  });

  it('excludes a later notification about an event at or before the watermark (event_id, related_event_id, context.event_id)', () => {
    const msg = ev('chat.message', { text: 'old', to: ['peer1'], message_mode: 'send' }, 'm1');
    const ledger = [
      add('add'),
      msg,
      nudge('n1'),
      read('r', 'n1'),
      nudge('later-event', { event_id: 'm1' }),
      nudge('later-related', { related_event_id: 'n1' }),
      nudge('later-context', { context: { event_id: 'm1' } }),
      nudge('later-pre-generation', { related_event_id: 'before' }),
      nudge('later-fresh', { related_event_id: 'later-event' }),
      nudge('later-unknown', { related_event_id: 'not-in-ledger' }),
    ];
    // Chat messages are never excluded by chat.read: only notifications are.
    expect(recover([ev('group.create', {}, 'before'), ...ledger])).toEqual(['m1', 'later-fresh', 'later-unknown']);
  });

  it('ignores targets outside the current generation, after their own record, or missing', () => {
    const old = [nudge('n0'), add('add'), nudge('n1')];
    expect(recover([...old, read('r', 'n0'), nudge('n2')])).toEqual(['n1', 'n2']); // target before the generation
    expect(recover([add('add'), read('r', 'n1'), nudge('n1'), nudge('n2')])).toEqual(['n1', 'n2']); // target after its record
    expect(recover([add('add'), nudge('n1'), read('r', 'gone'), nudge('n2')])).toEqual(['n1', 'n2']); // not in the ledger
  });

  it('ignores records of an earlier generation and of other actors', () => {
    const earlier = [add('add-1'), nudge('n1'), read('r1', 'n1')];
    expect(recover([...earlier, add('add-2'), nudge('n2')])).toEqual(['n2']);
    expect(recover([add('add'), nudge('n1'), read('r', 'n1', 'peer2'), nudge('n2')])).toEqual(['n1', 'n2']);
  });

  it('no chat.read means no boundary', () => {
    expect(legacyReadWatermark([], 1)).toBeNull();
    expect(consumedUnderWatermark(nudge('x'), 1, null, () => 1)).toBe(false);
    expect(recover([add('add'), nudge('n1'), nudge('n2')])).toEqual(['n1', 'n2']);
  });

  it('reads the referenced ids of a notification and recognises only chat.read of the actor', () => {
    expect(notifyReferences(nudge('x', { event_id: 'a', related_event_id: 'b', context: { event_id: 'c' } }))).toEqual(['a', 'b', 'c']);
    expect(notifyReferences(nudge('x', { context: null, related_event_id: '' }))).toEqual([]);
    expect(legacyReadTarget(read('r', 't'), 'peer1')).toBe('t');
    expect(legacyReadTarget(read('r', 't'), 'peer2')).toBeUndefined();
    expect(legacyReadTarget(ev('mail.read', { actor_id: 'peer1', event_id: 't' }), 'peer1')).toBeUndefined();
    expect(legacyReadTarget(ev('chat.read', { actor_id: 'peer1', event_id: 7 }), 'peer1')).toBeUndefined();
  });
});
