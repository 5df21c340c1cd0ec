import { describe, expect, it } from 'vitest';
import type { CCCSEventV1 } from '@cccc/ipc-protocol';
import { tailSelection, visibleTail } from './tail-kinds.js';
import { tailThenResumePoint } from './tail.js';

const ev = (id: string, kind: string) => ({ id, kind }) as CCCSEventV1;

/** A ledger whose `ledger_tail` runs `between` after its first read: an append racing the CLI. */
function racingLedger(initial: CCCSEventV1[], between: () => CCCSEventV1) {
  const events = [...initial];
  let reads = 0;
  return async ({ limit, kinds }: { limit: number; kinds?: string[] }) => {
    const matching = kinds ? events.filter((e) => kinds.includes(e.kind)) : events;
    const page = { events: matching.slice(-limit) };
    if (++reads === 1) events.push(between());
    return page;
  };
}

/** What a stream resuming after `since` would deliver of the kinds followed. */
const streamed = (all: CCCSEventV1[], since: string | undefined, kinds: string[]) =>
  all.slice(since ? all.findIndex((e) => e.id === since) + 1 : all.length).filter((e) => kinds.includes(e.kind));

describe('cccc tail -f: where the live stream resumes', () => {
  it('a matching event appended between the two reads is printed exactly once', async () => {
    const initial = [ev('a', 'group.create'), ev('b', 'actor.add')];
    const notice = ev('c', 'system.notify');
    const start = await tailThenResumePoint(racingLedger(initial, () => notice), ['system.notify'], 20);
    const printed = [...start.events, ...streamed([...initial, notice], start.sinceEventId, ['system.notify'])];
    expect(printed.map((e) => e.id)).toEqual(['c']);
  });

  it('resumes after the last matching event when there is one, and unfiltered after the last event', async () => {
    const initial = [ev('a', 'system.notify'), ev('b', 'actor.add')];
    const filtered = await tailThenResumePoint(racingLedger(initial, () => ev('x', 'actor.add')), ['system.notify'], 20);
    expect(filtered).toEqual({ events: [initial[0]], sinceEventId: 'a' });
    const all = await tailThenResumePoint(racingLedger(initial, () => ev('y', 'actor.add')), undefined, 20);
    expect(all).toEqual({ events: initial, sinceEventId: 'b' });
  });
});

describe('cccc tail: actor.activity hidden by default', () => {
  /** A ledger read backwards in pages, as ledger_tail serves it. */
  const pagedLedger = (all: CCCSEventV1[]) => {
    const reads: Array<string | undefined> = [];
    const read = async ({ limit, before_event_id }: { limit: number; before_event_id?: string }) => {
      reads.push(before_event_id);
      const end = before_event_id ? all.findIndex((e) => e.id === before_event_id) : all.length;
      const start = Math.max(0, end - limit);
      return { events: all.slice(start, end), has_more: start > 0 };
    };
    return { read, reads };
  };

  it('pages back past hidden events to fill the screen, and resumes after the ledger end', async () => {
    const all = [ev('m1', 'chat.message'), ev('m2', 'chat.message'), ...Array.from({ length: 7 }, (_, i) => ev(`a${i}`, 'actor.activity')), ev('m3', 'system.notify'), ev('a9', 'actor.activity')];
    const { read, reads } = pagedLedger(all);
    const page = await visibleTail(read, tailSelection({}, false).hidden, 3);
    expect(page.events.map((e) => e.id)).toEqual(['m1', 'm2', 'm3']);
    expect(page.has_more).toBe(false);
    // The stream resumes after the newest event of any kind, so nothing after it is lost.
    expect(page.sinceEventId).toBe('a9');
    expect(reads.length).toBeGreaterThan(1);
  });

  it('--all and --kinds show activity; the live stream names the kinds it follows', () => {
    expect(tailSelection({}, false)).toEqual({ kinds: undefined, hidden: new Set(['actor.activity']) });
    expect(tailSelection({}, true).kinds).toContain('group.start');
    expect(tailSelection({}, true).kinds).not.toContain('actor.activity');
    expect(tailSelection({ all: true }, true)).toEqual({ kinds: expect.arrayContaining(['actor.activity', 'chat.message']), hidden: new Set() });
    expect(tailSelection({ all: true }, false)).toEqual({ kinds: undefined, hidden: new Set() });
    expect(tailSelection({ kinds: ['actor.activity'] }, true)).toEqual({ kinds: ['actor.activity'], hidden: new Set() });
  });
});
