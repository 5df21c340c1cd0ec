import { describe, expect, it } from 'vitest';
import { GroupSubscribers } from './group-subscribers.js';

class Session {
  ended: string[] = [];
  end(reason: string): void {
    this.ended.push(reason);
  }
}

describe('GroupSubscribers', () => {
  it('keeps sessions per group, counts them, and forgets a group with its last session', () => {
    const subs = new GroupSubscribers<Session>();
    const [a, b, c] = [new Session(), new Session(), new Session()];
    const removeA = subs.add('g1', a);
    subs.add('g1', b);
    subs.add('g2', c);
    expect(subs.of('g1')).toEqual([a, b]);
    expect([subs.count('g1'), subs.count('g2'), subs.count('g3'), subs.count()]).toEqual([2, 1, 0, 3]);
    removeA();
    removeA(); // twice is harmless
    expect(subs.of('g1')).toEqual([b]);
    expect(subs.of('nobody')).toEqual([]);
  });

  it('a session may remove itself while the group is being walked; closeAll ends every session once', () => {
    const subs = new GroupSubscribers<Session>();
    const a = new Session();
    const b = new Session();
    const removeA = subs.add('g', a);
    subs.add('g', b);
    const walked: Session[] = [];
    for (const s of subs.of('g')) {
      walked.push(s);
      if (s === a) removeA();
    }
    expect(walked).toEqual([a, b]);
    subs.closeAll();
    expect([a.ended, b.ended]).toEqual([[], ['daemon stopping']]);
    expect(subs.count()).toBe(0);
  });
});
