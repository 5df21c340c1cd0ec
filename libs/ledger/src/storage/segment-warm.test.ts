import * as zlib from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openGroupLedger } from '../open-ledger.js';
import { ledgerPaths } from '../paths.js';
import { TempHomes } from '../test-support/homes.js';
import { LedgerFiles } from './ledger-files.js';

// gunzipSync counted: a whole-segment inflate on the reading thread is what this is about.
vi.mock('node:zlib', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:zlib')>();
  return { ...actual, gunzipSync: vi.fn(actual.gunzipSync) };
});

const homes = new TempHomes();
afterEach(() => homes.cleanup());
const G = 'g_segwarm00001';

/** A ledger with segment 1 sealed (plain) holding the first five Mails to peer1, and five more after it. */
async function ledgerWithSealedMail(home = homes.make()) {
  const store = await openGroupLedger({ home, groupId: G });
  const ids: string[] = [];
  const append = async (n: number) => {
    for (let i = 0; i < n; i++) ids.push((await store.append({ kind: 'chat.message', by: 'user', data: { text: `m${ids.length}`, message_mode: 'mail', to: ['peer1'] } })).event.id);
  };
  await append(5);
  await store.compact({ force: true });
  await append(5);
  return { store, ids };
}

const peekIds = (store: Awaited<ReturnType<typeof openGroupLedger>>) => store.inboxPeek({ actorId: 'peer1', limit: 3 }).messages.map((m) => m.id);

describe('a segment gzipped while readers use it', () => {
  it('keeps its bytes: the next reads are served without inflating the .gz', async () => {
    const { store, ids } = await ledgerWithSealedMail();
    await using _ = store;
    expect(peekIds(store)).toEqual(ids.slice(0, 3)); // the oldest unread Mail is in segment 1
    vi.mocked(zlib.gunzipSync).mockClear();
    const report = await store.compact({ force: true }); // segment 2 sealed, segment 1 gzipped
    expect(report.compressed).toEqual([1]);
    expect(peekIds(store)).toEqual(ids.slice(0, 3));
    expect(store.findById(ids[4]!)?.id).toBe(ids[4]);
    expect(zlib.gunzipSync).not.toHaveBeenCalled();
  });

  it('a segment nobody read is not held: its first read after the gzip inflates it', async () => {
    const { store, ids } = await ledgerWithSealedMail();
    await using _ = store;
    vi.mocked(zlib.gunzipSync).mockClear();
    expect((await store.compact({ force: true })).compressed).toEqual([1]);
    expect(zlib.gunzipSync).not.toHaveBeenCalled();
    expect(peekIds(store)).toEqual(ids.slice(0, 3));
    expect(zlib.gunzipSync).toHaveBeenCalledTimes(1);
    expect(peekIds(store)).toEqual(ids.slice(0, 3)); // then cached as before
    expect(zlib.gunzipSync).toHaveBeenCalledTimes(1);
  });

  it('a plain file that cannot be read any more leaves the cache as it was, without an error', async () => {
    const home = homes.make();
    await (await ledgerWithSealedMail(home)).store.close();
    const files = new LedgerFiles(ledgerPaths(home, G));
    try {
      files.readAt(1, 0, 10); // segment 1 in use
      const gz = { ...files.segment(1), compressed: true, path: `${files.segment(1).path}.gz` };
      await expect(files.keepWarmAfterGzip(`${files.segment(1).path}.missing`, gz)).resolves.toBeUndefined();
      expect(files.cachedSegmentBytes).toBe(0);
    } finally {
      files.close();
    }
  });
});
