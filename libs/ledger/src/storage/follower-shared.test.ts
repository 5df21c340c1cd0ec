import { afterEach, describe, expect, it } from 'vitest';
import { openGroupLedger } from '../open-ledger.js';
import { TempHomes } from '../test-support/homes.js';
import type { AppendInput } from '../types.js';

const homes = new TempHomes();
afterEach(() => homes.cleanup());
const G = 'g_followers001';

const mail = (text: string): AppendInput<'chat.message'> => ({ kind: 'chat.message', by: 'user', data: { text, message_mode: 'mail', to: ['peer1'] } });

// Issue 20: every events_stream subscriber has its own follower, and each decoded every new
// record again (20 subscribers: 20 parses and 20 event objects per append).
describe('followers at the same position', () => {
  it('share one decode of what was appended: the same event objects', async () => {
    await using store = await openGroupLedger({ home: homes.make(), groupId: G });
    await store.append(mail('before'));
    const [a, b] = [store.follow(), store.follow()];
    const written = await store.appendMany([mail('one'), mail('two'), mail('three')]);
    const fromA = a.poll();
    const fromB = b.poll();
    expect(fromA.map((e) => e.id)).toEqual(written.map((w) => w.event.id));
    expect(fromB).toHaveLength(3);
    fromB.forEach((e, i) => expect(e).toBe(fromA[i]));

    // A follower elsewhere still reads its own range; the next append is shared again.
    const late = store.follow({ fromStart: true });
    expect(late.poll().map((e) => e.data['text'])).toEqual(['before', 'one', 'two', 'three']);
    const { event } = await store.append(mail('four'));
    const [x, y, z] = [a.poll(), b.poll(), late.poll()];
    expect(x.map((e) => e.id)).toEqual([event.id]);
    expect(y[0]).toBe(x[0]);
    expect(z[0]).toBe(x[0]);
    expect(a.poll()).toEqual([]);
  });
});
