import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { openGroupLedger } from '../open-ledger.js';
import { ledgerPaths } from '../paths.js';
import { TempHomes } from '../test-support/homes.js';
import { LedgerFiles } from './ledger-files.js';
import { GzSegment } from './gz-segment.js';
import { SegmentCache, type SegmentFile } from './segment-files.js';
import { gzipFile } from './segment-gzip-file.js';
import { SegmentReads } from './segment-reads.js';

const homes = new TempHomes();
afterEach(() => homes.cleanup());
const G = 'g_segreads0001';

// A sealed segment with a blank line and an unterminated last line (a damaged record counts).
const BYTES = Buffer.from('{"a":1}\n\n{"b":22}\n{"c":333}\ntail-no-newline');
const LINES = ['{"a":1}', '', '{"b":22}', '{"c":333}', 'tail-no-newline'];

/**
 * How a sealed segment can be on disk: plain; a .gz of one member (the reference's, our older
 * versions'); our gzip's members, here of at most 6 or 9 raw bytes so that lines cross members
 * and members end both on and off a newline.
 */
type Format = 'plain' | 'gzip, one member' | 'gzip members of 6 bytes' | 'gzip members of 9 bytes';
const FORMATS: Format[] = ['plain', 'gzip, one member', 'gzip members of 6 bytes', 'gzip members of 9 bytes'];

function segmentOn(dir: string, format: Format, bytes: Buffer = BYTES): SegmentFile {
  mkdirSync(dir, { recursive: true });
  const compressed = format !== 'plain';
  const path = join(dir, compressed ? 'ledger.20261130T080000Z.000001.jsonl.gz' : 'ledger.20261130T080000Z.000001.jsonl');
  if (format === 'plain' || format === 'gzip, one member') writeFileSync(path, compressed ? gzipSync(bytes) : bytes);
  else {
    writeFileSync(`${path}.raw`, bytes);
    gzipFile(`${path}.raw`, path, format === 'gzip members of 6 bytes' ? 6 : 9);
  }
  return { seq: 1, path, relPath: path, compressed };
}

for (const format of FORMATS) {
  describe(`SegmentReads (${format})`, () => {
    const reads = new SegmentReads();
    const text = (b: Buffer | undefined) => b?.toString('utf8');

    it('reads lines forward, backward and from an offset, the unterminated tail included', () => {
      const seg = segmentOn(homes.make(), format);
      if (format.startsWith('gzip members')) expect(GzSegment.open(seg.path).memberCount).toBeGreaterThan(3);
      expect([...reads.forward(seg)].map((l) => text(l.bytes))).toEqual(LINES);
      expect([...reads.backward(seg)].map((l) => text(l.bytes))).toEqual([...LINES].reverse());
      const from: string[] = [];
      expect(reads.eachLineFrom(seg, 9, (l) => from.push(`${l.off}:${text(l.bytes)}`))).toBe(BYTES.length);
      expect(from).toEqual(['9:{"b":22}', '18:{"c":333}', '28:tail-no-newline']);
      expect(reads.eachLineFrom(seg, BYTES.length + 1, () => from.push('x'))).toBe(BYTES.length);
      expect(from).toHaveLength(3);
    });

    it('reads a byte range and the line ending before an offset', () => {
      const seg = segmentOn(homes.make(), format);
      expect(text(reads.range(seg, 9, 8))).toBe('{"b":22}');
      expect(text(reads.range(seg, 18, 100))).toBe('{"c":333}\ntail-no-newline');
      expect(text(reads.lineEndingAt(seg, 18).line)).toBe('{"b":22}');
      expect(text(reads.lineEndingAt(seg, 8).line)).toBe('{"a":1}');
      expect(text(reads.lineEndingAt(seg, 9).line)).toBe('');
      expect(reads.lineEndingAt(seg, 0)).toEqual({ size: BYTES.length, line: undefined });
      expect(reads.lineEndingAt(seg, BYTES.length + 5).line).toBeUndefined();
    });

    it('reads a segment that ends with its newline, and an empty one, the way the plain file reads', () => {
      for (const bytes of [Buffer.from('{"a":1}\n{"b":22}\n'), Buffer.from('\n'), Buffer.alloc(0)]) {
        const seg = segmentOn(homes.make(), format, bytes);
        const plain = segmentOn(homes.make(), 'plain', bytes);
        const all = (s: SegmentFile) => ({
          forward: [...reads.forward(s)].map((l) => [l.off, text(l.bytes)]),
          backward: [...reads.backward(s)].map((l) => [l.off, text(l.bytes)]),
          size: reads.eachLineFrom(s, 0, () => undefined),
        });
        expect(all(seg)).toEqual(all(plain));
      }
    });
  });
}

// Random segments, with lines of every length from none to longer than a member: each read of a
// .gz in members answers what the same read of the plain file answers.
describe('a .gz in members reads as its plain file', () => {
  it('forward, backward, from any offset, any range, any line end', () => {
    const line = fc.oneof(fc.string({ maxLength: 3 }), fc.string({ minLength: 20, maxLength: 60 }));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.boolean(), fc.integer({ min: 4, max: 40 }), fc.nat(), fc.nat(), (lines, ended, piece, a, b) => {
        const bytes = Buffer.from(lines.join('\n') + (ended && lines.length > 0 ? '\n' : ''));
        const dir = homes.make();
        mkdirSync(dir, { recursive: true });
        const plain = segmentOn(join(dir, 'plain'), 'plain', bytes);
        const gzPath = join(dir, 'ledger.20261130T080000Z.000001.jsonl.gz');
        gzipFile(plain.path, gzPath, piece);
        const gz: SegmentFile = { seq: 1, path: gzPath, relPath: gzPath, compressed: true };
        const reads = new SegmentReads();
        const spans = (it: Iterable<{ off: number; bytes: Buffer }>) => [...it].map((l) => `${l.off}:${l.bytes.toString('latin1')}`);
        expect(spans(reads.forward(gz))).toEqual(spans(reads.forward(plain)));
        expect(spans(reads.backward(gz))).toEqual(spans(reads.backward(plain)));
        const start = bytes.length ? a % (bytes.length + 1) : 0;
        const from = (s: SegmentFile) => {
          const seen: string[] = [];
          return { size: reads.eachLineFrom(s, start, (l) => seen.push(`${l.off}:${l.bytes.toString('latin1')}`)), seen };
        };
        expect(from(gz)).toEqual(from(plain));
        expect(reads.range(gz, start, b % 50).equals(reads.range(plain, start, b % 50))).toBe(true);
        // At a newline or not: both forms answer the last complete line before `end`.
        const end = start + 1;
        if (end <= bytes.length) expect(reads.lineEndingAt(gz, end).line?.toString('latin1')).toBe(reads.lineEndingAt(plain, end).line?.toString('latin1'));
      }),
      { numRuns: 200 },
    );
  });
});

describe('SegmentCache', () => {
  it('serves an opened .gz until the file at its path changes, then opens the new one', () => {
    const seg = segmentOn(join(homes.make(), 'segments'), 'gzip, one member');
    const cache = new SegmentCache(2);
    const first = cache.get(seg);
    expect(first.slice(0, BYTES.length).equals(BYTES)).toBe(true);
    expect(cache.get(seg)).toBe(first); // a hit: the same segment, not a second inflate
    // Another file put at the same path (a re-gzip after a crash, another writer): never stale.
    const other = Buffer.from('{"z":9}\n');
    writeFileSync(`${seg.path}.next`, gzipSync(other));
    renameSync(`${seg.path}.next`, seg.path);
    expect(cache.get(seg).slice(0, 100).equals(other)).toBe(true);
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
