import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { openGroupLedger } from '../open-ledger.js';
import { ledgerPaths } from '../paths.js';
import { TempHomes } from '../test-support/homes.js';
import { LedgerFiles } from './ledger-files.js';
import { readSegmentBytes, SegmentCache, type SegmentFile } from './segment-files.js';
import { SegmentReads } from './segment-reads.js';

const homes = new TempHomes();
afterEach(() => homes.cleanup());
const G = 'g_segreads0001';

// A sealed segment with a blank line and an unterminated last line (a damaged record counts).
const BYTES = Buffer.from('{"a":1}\n\n{"b":22}\n{"c":333}\ntail-no-newline');
const LINES = ['{"a":1}', '', '{"b":22}', '{"c":333}', 'tail-no-newline'];

function segmentOn(dir: string, compressed: boolean): SegmentFile {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, compressed ? 'ledger.20261130T080000Z.000001.jsonl.gz' : 'ledger.20261130T080000Z.000001.jsonl');
  writeFileSync(path, compressed ? gzipSync(BYTES) : BYTES);
  return { seq: 1, path, relPath: path, compressed };
}

for (const compressed of [false, true]) {
  describe(`SegmentReads (${compressed ? '.gz' : 'plain'})`, () => {
    const reads = new SegmentReads(readSegmentBytes);
    const text = (b: Buffer | undefined) => b?.toString('utf8');

    it('reads lines forward, backward and from an offset, the unterminated tail included', () => {
      const seg = segmentOn(homes.make(), compressed);
      expect([...reads.forward(seg)].map((l) => text(l.bytes))).toEqual(LINES);
      expect([...reads.backward(seg)].map((l) => text(l.bytes))).toEqual([...LINES].reverse());
      const from: string[] = [];
      expect(reads.eachLineFrom(seg, 9, (l) => from.push(`${l.off}:${text(l.bytes)}`))).toBe(BYTES.length);
      expect(from).toEqual(['9:{"b":22}', '18:{"c":333}', '28:tail-no-newline']);
      expect(reads.eachLineFrom(seg, BYTES.length + 1, () => from.push('x'))).toBe(BYTES.length);
      expect(from).toHaveLength(3);
    });

    it('reads a byte range and the line ending before an offset', () => {
      const seg = segmentOn(homes.make(), compressed);
      expect(text(reads.range(seg, 9, 8))).toBe('{"b":22}');
      expect(text(reads.lineEndingAt(seg, 18).line)).toBe('{"b":22}');
      expect(text(reads.lineEndingAt(seg, 8).line)).toBe('{"a":1}');
      expect(reads.lineEndingAt(seg, 0)).toEqual({ size: BYTES.length, line: undefined });
      expect(reads.lineEndingAt(seg, BYTES.length + 5).line).toBeUndefined();
    });
  });
}

describe('SegmentCache', () => {
  it('serves a decompressed .gz until the file at its path changes, then reads the new one', () => {
    const seg = segmentOn(join(homes.make(), 'segments'), true);
    const cache = new SegmentCache(2);
    const first = cache.get(seg);
    expect(first.equals(BYTES)).toBe(true);
    expect(cache.get(seg)).toBe(first); // a hit: the same buffer, not a second inflate
    // Another file put at the same path (a re-gzip after a crash, another writer): never stale.
    const other = Buffer.from('{"z":9}\n');
    writeFileSync(`${seg.path}.next`, gzipSync(other));
    renameSync(`${seg.path}.next`, seg.path);
    expect(cache.get(seg).equals(other)).toBe(true);
    expect(cache.bytes).toBe(other.length);
  });
});

describe('sealed segments in memory', () => {
  it('a plain segment is read in chunks and never held whole; only decompressed .gz segments are cached', async () => {
    const home = homes.make();
    const ids: string[] = [];
    {
      await using store = await openGroupLedger({ home, groupId: G });
      const append = async (n: number) => {
        for (let i = 0; i < n; i++) ids.push((await store.append({ kind: 'chat.message', by: 'user', data: { text: `m${ids.length}`, message_mode: 'mail', to: ['peer1'] } })).event.id);
      };
      await append(5);
      await store.compact({ force: true }); // seg 1, plain
      await append(5);
      await store.compact({ force: true }); // seg 2 plain, seg 1 gzipped
      await append(2);
    }
    const files = new LedgerFiles(ledgerPaths(home, G));
    try {
      expect(files.segments().map((s) => [s.seq, s.compressed])).toEqual([
        [1, true],
        [2, false],
      ]);
      // Plain segment 2: a record, a follower's chunked read, a boundary check, whole walks.
      expect(text(files.readAt(2, 0, 10))).toMatch(/^\{"v":1,/);
      const seen: string[] = [];
      files.segmentLinesFrom(2, 0, (l) => seen.push(l.bytes.toString('utf8')));
      expect(seen.map((l) => JSON.parse(l).id)).toEqual(ids.slice(5, 10));
      expect(files.segmentLineEndingAt(2, Buffer.byteLength(seen.join('\n')) + 1).line?.toString('utf8')).toBe(seen.at(-1));
      expect([...files.forward()].map((l) => JSON.parse(l.bytes.toString('utf8')).id)).toEqual(ids);
      const decompressed = files.cachedSegmentBytes;
      expect(decompressed).toBeGreaterThan(0); // forward() decompressed segment 1 (.gz)
      // A rotation elsewhere changes no .gz: the decompressed bytes outlive the listing, and
      // plain segment reads never add to them.
      files.invalidate();
      for (const seg of [2]) {
        files.readAt(seg, 0, 10);
        files.segmentLinesFrom(seg, 0, () => undefined);
        [...files.segmentLines(seg)];
      }
      expect(files.cachedSegmentBytes).toBe(decompressed);
      files.close();
      expect(files.cachedSegmentBytes).toBe(0);
      files.readAt(1, 0, 10);
      expect(files.cachedSegmentBytes).toBe(decompressed);
    } finally {
      files.close();
    }
  });
});

function text(b: Buffer): string {
  return b.toString('utf8');
}
