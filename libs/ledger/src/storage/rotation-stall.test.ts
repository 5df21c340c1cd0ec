import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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

// Issue 20, point 6: sealing decoded every record of the active file under the writer lock
// (~60 ms for 6 MB, every append of the process waiting behind it). The records are now read
// before the lock, with event-loop turns between chunks; under the lock only what was appended
// since is read.
describe('a rotation reads the active file before it takes the writer lock', () => {
  it('an append made while a 6 MB active file is being checked is acknowledged before the rotation ends', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G, compactMinIntervalMs: 0 });
    await fill(store, 6_000_000, 'big');
    const order: string[] = [];
    const rotation = store.compact({ force: true }).then((r) => {
      order.push('rotation');
      return r;
    });
    // The next turn of the event loop: before, the whole file was decoded under the lock first.
    await new Promise((r) => setImmediate(r));
    const append = store.append({ kind: 'x.during', by: 'user', data: {} }).then(() => order.push('append'));
    const [report] = await Promise.all([rotation, append]);
    expect(report).toMatchObject({ rotated: true });
    expect(order).toEqual(['append', 'rotation']);
  });

  it('seals and counts the records appended between the pre-scan and the lock', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G, compactMinIntervalMs: 0 });
    await fill(store, 3_000_000, 'before');
    const rotation = store.compact({ force: true });
    const during = Promise.all(Array.from({ length: 20 }, (_, i) => store.append({ kind: 'x.during', by: 'user', data: { i } })));
    const [report] = await Promise.all([rotation, during]);
    const total = [...store.readForward()].length;
    const sealed = report.segment!.line_count;
    const active = readFileSync(join(home, 'groups', G, 'ledger.jsonl'), 'utf8').split('\n').filter(Boolean).length;
    expect(sealed + active).toBe(total);
    const segment = readFileSync(join(home, 'groups', G, report.segment!.path), 'utf8');
    expect(segment.split('\n').filter(Boolean)).toHaveLength(sealed);
  });
});
