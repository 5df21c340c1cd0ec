import { describe, expect, it } from 'vitest';
import type { CCCSEventV1 } from '@cccc/ipc-protocol';
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
