import { afterEach, describe, expect, it } from 'vitest';
import { openGroupLedger } from '../open-ledger.js';
import type { FileLedgerStore } from '../file-store.js';
import { TempHomes } from '../test-support/homes.js';

const homes = new TempHomes();
afterEach(() => homes.cleanup());
const G = 'g_rotation0001';

async function fill(store: FileLedgerStore, bytes: number, tag: string): Promise<void> {
  const text = `${tag} `.repeat(1000);
  const batch = Array.from({ length: 50 }, () => ({ kind: 'x.fill', by: 'user', data: { text } }));
  for (let written = 0; written < bytes; written += 50 * text.length) await store.appendMany(batch);
}

// Issue 20: a rotation stalled the append path (the whole history scanned and the older segment
// gzipped synchronously, under the writer lock). Now only the sealed file is read under the lock
// and the gzip streams through zlib with the lock released, so an append made while a rotation
// compresses a large segment is acknowledged before that rotation finishes.
describe('rotation does not block the append path', () => {
  it('an append during a rotation that gzips a 6 MB segment is acknowledged first', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G, compactMinIntervalMs: 0 });
    await fill(store, 6_000_000, 'old');
    await store.compact({ force: true }); // seg 1: plain, the newest
    await fill(store, 200_000, 'new');
    const order: string[] = [];
    const rotation = store.compact({ force: true }).then((r) => {
      order.push('rotation');
      return r;
    }); // seals seg 2, then gzips seg 1
    // Let the rotation take the lock and seal, then append while seg 1 is being compressed.
    await new Promise((r) => setTimeout(r, 5));
    const append = store.append({ kind: 'x.during', by: 'user', data: {} }).then(() => order.push('append'));
    const [report] = await Promise.all([rotation, append]);
    expect(report).toMatchObject({ rotated: true, compressed: [1] });
    expect(order).toEqual(['append', 'rotation']);
    expect([...store.readForward()].filter((e) => e.kind === 'x.during')).toHaveLength(1);
  });
});
