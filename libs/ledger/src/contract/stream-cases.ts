import { expect } from 'vitest';
import { codeOf, type Check, type WithStore } from './helpers.js';

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
