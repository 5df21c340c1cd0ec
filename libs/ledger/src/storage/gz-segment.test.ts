import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openGroupLedger } from '../open-ledger.js';
import { TempHomes } from '../test-support/homes.js';
import { GzSegment } from './gz-segment.js';
import { MAX_INFLATED_SEGMENT_BYTES } from './limits.js';
import { gzipFile, gzipMember, PIECE_BYTES } from './segment-gzip-file.js';

// gunzipSync counted: what a read inflates on the reading thread is what this is about.
vi.mock('node:zlib', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:zlib')>();
  return { ...actual, gunzipSync: vi.fn(actual.gunzipSync) };
});

const homes = new TempHomes();
afterEach(() => homes.cleanup());
const G = 'g_gzsegment001';

/** Bytes inflated by gunzipSync since the last clear. */
const inflated = () => vi.mocked(zlib.gunzipSync).mock.results.reduce((n, r) => n + (r.value as Buffer).length, 0);

// Issue 20, points 3 and 6: an idle agent's oldest unread Mail sits in an old segment, and the
// rotation gzips it. The next read used to inflate the whole segment on the daemon's thread (tens
// of milliseconds, every request behind it) and hold it all; now it inflates one member.
describe('a gzipped segment in use', () => {
  it('serves the oldest unread Mail by inflating one member, not the segment', async () => {
    const store = await openGroupLedger({ home: homes.make(), groupId: G });
    await using _ = store;
    const ids: string[] = [];
    for (let i = 0; i < 110; i++) {
      const text = `${i} ${'m'.repeat(30_000)}`; // under the spill size: the text stays in the ledger
      ids.push((await store.append({ kind: 'chat.message', by: 'user', data: { text, message_mode: 'mail', to: ['peer1'] } })).event.id);
    }
    await store.compact({ force: true }); // segment 1 sealed (~3.3 MB)
    await store.append({ kind: 'chat.message', by: 'user', data: { text: 'after', to: ['@all'] } });
    expect((await store.compact({ force: true })).compressed).toEqual([1]);
    vi.mocked(zlib.gunzipSync).mockClear();
    const peek = store.inboxPeek({ actorId: 'peer1', limit: 3 }).messages.map((m) => m.id);
    expect(peek).toEqual(ids.slice(0, 3));
    expect(store.findById(ids[1]!)?.id).toBe(ids[1]);
    expect(inflated()).toBeGreaterThan(0);
    expect(inflated()).toBeLessThanOrEqual(PIECE_BYTES);
    vi.mocked(zlib.gunzipSync).mockClear();
    expect(store.inboxPeek({ actorId: 'peer1', limit: 3 }).messages.map((m) => m.id)).toEqual(peek);
    expect(zlib.gunzipSync).not.toHaveBeenCalled(); // the member stays held for the next reads
    // A whole walk, both ways, still reads every event of the segment.
    expect([...store.readForward()].filter((e) => e.kind === 'chat.message').map((e) => e.id)).toEqual([...ids, expect.any(String)]);
    expect([...store.readBackward()].filter((e) => e.kind === 'chat.message')).toHaveLength(111);
  });
});

describe('our gzip in members', () => {
  it('ends members after a newline, records their lengths, and reads back with any gunzip', () => {
    const dir = homes.make();
    const source = join(dir, 'seg.jsonl');
    const lines = Array.from({ length: 9000 }, (_, i) => JSON.stringify({ i, pad: 'p'.repeat(i % 500) }));
    writeFileSync(source, `${lines.join('\n')}\n`);
    gzipFile(source, `${source}.gz`);
    const raw = readFileSync(source);
    const gz = GzSegment.open(`${source}.gz`);
    expect(gz.memberCount).toBeGreaterThan(2);
    expect(gz.size).toBe(raw.length);
    for (let i = 0; i < gz.memberCount; i++) {
      const { start, end } = gz.memberSpan(i);
      expect(end - start).toBeLessThanOrEqual(PIECE_BYTES);
      expect(raw[end - 1]).toBe(0x0a);
    }
    expect(gz.heldBytes).toBe(0); // opening reads headers, inflates nothing
    const python = execFileSync('python3', ['-c', 'import gzip,sys; sys.stdout.buffer.write(gzip.open(sys.argv[1]).read())', `${source}.gz`], { maxBuffer: 64 << 20 });
    expect(python.equals(raw)).toBe(true);
    expect(zlib.gunzipSync(readFileSync(`${source}.gz`)).equals(raw)).toBe(true);
  });

  it('a gzip of one member, or members that do not chain to the end, is read whole', () => {
    const dir = homes.make();
    const raw = Buffer.from('{"a":1}\n{"b":2}\n');
    writeFileSync(join(dir, 'one.gz'), zlib.gzipSync(raw));
    writeFileSync(join(dir, 'raw'), Buffer.concat([raw, raw, raw]));
    gzipFile(join(dir, 'raw'), join(dir, 'cut.gz'), 8);
    writeFileSync(join(dir, 'cut.gz'), readFileSync(join(dir, 'cut.gz')).subarray(0, -3));
    const one = GzSegment.open(join(dir, 'one.gz'));
    expect([one.memberCount, one.size, one.slice(0, 100).equals(raw)]).toEqual([1, raw.length, true]);
    // A member list cut short is not trusted: the whole-file inflate reports the damage.
    expect(() => GzSegment.open(join(dir, 'cut.gz'))).toThrow();
  });

  // Bad input never bloats the daemon: a small .gz may claim, or hold, gigabytes.
  it('a member holding more than a piece is not trusted, and the whole-file read stops at its limit', () => {
    const dir = homes.make();
    // Two members that chain correctly, the first honestly 2 MiB: not what our gzip writes.
    const big = Buffer.from(`${'x'.repeat(2 * PIECE_BYTES - 1)}\n`);
    writeFileSync(join(dir, 'big.gz'), Buffer.concat([gzipMember(big), gzipMember(Buffer.from('{"b":2}\n'))]));
    const fallback = GzSegment.open(join(dir, 'big.gz'));
    expect([fallback.memberCount, fallback.size]).toEqual([1, big.length + 8]);
    // A gzip that inflates past the limit (a ~100 KB file of 100 MiB of zeros) is refused, and the
    // inflate is told where to stop.
    writeFileSync(join(dir, 'bomb.gz'), zlib.gzipSync(Buffer.alloc(MAX_INFLATED_SEGMENT_BYTES + PIECE_BYTES)));
    vi.mocked(zlib.gunzipSync).mockClear();
    expect(() => GzSegment.open(join(dir, 'bomb.gz'))).toThrow(expect.objectContaining({ code: 'ledger_malformed' }));
    expect(vi.mocked(zlib.gunzipSync).mock.calls.map(([, options]) => options?.maxOutputLength)).toEqual([MAX_INFLATED_SEGMENT_BYTES]);
  });

  it('a member whose deflate holds more than its trailer says is refused at the length it claims', () => {
    const dir = homes.make();
    // Our header and a trailer claiming 8 bytes, around a deflate of 4 MiB.
    const member = gzipMember(Buffer.alloc(4 * PIECE_BYTES));
    member.writeUInt32LE(8, member.length - 4);
    writeFileSync(join(dir, 'liar.gz'), member);
    const gz = GzSegment.open(join(dir, 'liar.gz'));
    expect([gz.memberCount, gz.size]).toEqual([1, 8]);
    vi.mocked(zlib.gunzipSync).mockClear();
    expect(() => gz.slice(0, 8)).toThrow(expect.objectContaining({ code: 'ledger_malformed' }));
    expect(vi.mocked(zlib.gunzipSync).mock.calls.map(([, options]) => options?.maxOutputLength)).toEqual([8]);
    expect(gz.heldBytes).toBe(0);
  });
});
