// Issue 20, point 6: a rotation's syncs (the segments/ and group directories after the rename,
// the manifest, and the same again when an older segment's gzip takes its place) ran as
// synchronous fsyncs on the event loop, holding every request of the daemon. They now run on
// libuv's thread pool; the lock order and what is durable before the lock is released are as
// before (storage.test.ts, segments.test.ts and the kill -9 suites cover those).
import { fsyncSync, fdatasyncSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openGroupLedger } from '../open-ledger.js';
import type { FileLedgerStore } from '../file-store.js';
import { TempHomes } from '../test-support/homes.js';

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const counted = { ...real, fsyncSync: vi.fn(real.fsyncSync), fdatasyncSync: vi.fn(real.fdatasyncSync) };
  return { ...counted, default: counted };
});

const homes = new TempHomes();
afterEach(() => homes.cleanup());
const G = 'g_rotoffloop01';

async function fill(store: FileLedgerStore, events: number, tag: string): Promise<void> {
  const text = `${tag} `.repeat(200);
  for (let i = 0; i < events; i += 50) await store.appendMany(Array.from({ length: 50 }, (_, j) => ({ kind: 'x.fill', by: 'user', data: { text, n: i + j } })));
}

describe('a rotation syncs off the event loop', () => {
  it('seals and gzips with no synchronous fsync, and reads served meanwhile see every event', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G, compactMinIntervalMs: 0 });
    await fill(store, 500, 'one');
    await store.compact({ force: true }); // seg 1 (the first rotation also creates segments/)
    await fill(store, 500, 'two');
    expect(vi.isMockFunction(fsyncSync)).toBe(true);
    vi.mocked(fsyncSync).mockClear();
    vi.mocked(fdatasyncSync).mockClear();
    const inlineBefore = store.appendStats().inlineSyncs;

    let done = false;
    const rotation = store.compact({ force: true }).finally(() => (done = true)); // seals seg 2, gzips seg 1
    const seen: number[] = [];
    const appended: Array<Promise<unknown>> = [];
    // Bounded: a rotation that polls for the lock can starve behind a steady stream of appends.
    while (!done && seen.length < 2000) {
      // Each turn: a read (tail and a lookup by position) and an append, as a busy daemon serves.
      const last = store.tail({ limit: 1 }).events[0];
      seen.push(last ? store.ordinalOf(last.id)! : 0);
      appended.push(store.append({ kind: 'x.during', by: 'user', data: { turn: seen.length } }));
      await new Promise((r) => setImmediate(r));
    }
    expect(done, 'the rotation ended while appends kept coming').toBe(true);
    const report = await rotation;
    await Promise.all(appended);

    expect(report).toMatchObject({ rotated: true, compressed: [1] });
    expect(vi.mocked(fsyncSync)).not.toHaveBeenCalled();
    // The only synchronous syncs: the ledger's own, if it placed an append inline (sync-placement.ts).
    expect(vi.mocked(fdatasyncSync).mock.calls.length).toBe(store.appendStats().inlineSyncs - inlineBefore);
    // The loop turned while the rotation ran, and no read saw the history shrink.
    expect(seen.length).toBeGreaterThan(1);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThanOrEqual(seen[i - 1]!);
    expect(seen[0]).toBeGreaterThanOrEqual(1000);
    const all = [...store.readForward()];
    expect(all.filter((e) => e.kind === 'x.fill')).toHaveLength(1000);
    expect(all.filter((e) => e.kind === 'x.during')).toHaveLength(appended.length);
  });
});

// The same rule for the other durable side file of an append: a chat text over 32,000 bytes is
// spilled to a blob, made durable before the event naming it is written.
describe('a spilled chat text syncs off the event loop', () => {
  it('writes the blob with no synchronous fsync; it is whole on disk when the append resolves', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    await store.append({ kind: 'x.first', by: 'user', data: {} });
    vi.mocked(fsyncSync).mockClear();
    const text = 'long paste '.repeat(4000);
    const { event } = await store.append({ kind: 'chat.message', by: 'user', data: { text, message_mode: 'mail', to: ['peer1'] } });
    expect(vi.mocked(fsyncSync)).not.toHaveBeenCalled();
    const path = (event.data as { attachments: Array<{ path: string }> }).attachments[0]!.path;
    expect(readFileSync(join(home, 'groups', G, path), 'utf8')).toBe(text);
  });
});
