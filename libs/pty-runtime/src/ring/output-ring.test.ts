import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OutputRing } from './output-ring.js';

const enc = (s: string) => Buffer.from(s, 'utf8');

describe('OutputRing', () => {
  it('addresses output by absolute byte cursors', () => {
    const ring = new OutputRing();
    ring.append(enc('hello '));
    ring.append(enc('world'));
    expect([ring.startCursor, ring.endCursor]).toEqual([0, 11]);
    const page = ring.read(6, { limitBytes: 100 });
    expect(page).toMatchObject({ start: 6, end: 11, hasMore: false, cursorExpired: false });
    expect(page.data.toString()).toBe('world');
  });

  it('allocates on demand and never preallocates the cap', () => {
    const ring = new OutputRing({ capBytes: 10 * 1024 * 1024 });
    expect(ring.allocatedBytes).toBe(0);
    ring.append(enc('x'));
    expect(ring.allocatedBytes).toBeLessThanOrEqual(8 * 1024);
  });

  it('evicts the oldest bytes beyond the cap and reports expired cursors', () => {
    const ring = new OutputRing({ capBytes: 10 });
    ring.append(enc('0123456789abcdef'));
    expect([ring.startCursor, ring.endCursor]).toEqual([6, 16]);
    const page = ring.read(2, { limitBytes: 4 });
    expect(page).toMatchObject({ start: 6, end: 10, hasMore: true, cursorExpired: true });
    expect(page.data.toString()).toBe('6789');
  });

  it('clear forgets output but cursors keep counting', () => {
    const ring = new OutputRing();
    ring.append(enc('abc'));
    ring.clear();
    expect([ring.startCursor, ring.endCursor, ring.retainedBytes]).toEqual([3, 3, 0]);
    expect(ring.read(0, { limitBytes: 10 })).toMatchObject({ start: 3, end: 3, cursorExpired: true });
    ring.append(enc('de'));
    expect(ring.read(3, { limitBytes: 10 }).data.toString()).toBe('de');
  });

  it('finishes a code point past the limit (at most 3 bytes)', () => {
    const ring = new OutputRing();
    ring.append(enc('a😀b')); // 1 + 4 + 1 bytes
    const page = ring.read(0, { limitBytes: 2 });
    expect(page.end).toBe(5);
    expect(page.data.toString()).toBe('a😀');
  });

  it('leaves an incomplete trailing code point for later', () => {
    const ring = new OutputRing();
    const smile = enc('😀');
    ring.append(Buffer.concat([enc('ab'), smile.subarray(0, 2)]));
    const first = ring.read(0, { limitBytes: 100 });
    expect(first).toMatchObject({ end: 2, hasMore: false });
    ring.append(smile.subarray(2));
    const next = ring.read(first.end, { limitBytes: 100 });
    expect(next.data.toString()).toBe('😀');
  });

  it('respects a pinned end cursor', () => {
    const ring = new OutputRing();
    ring.append(enc('0123456789'));
    const pinned = ring.completeEnd();
    ring.append(enc('later'));
    const page = ring.read(8, { limitBytes: 100, end: pinned });
    expect(page).toMatchObject({ start: 8, end: 10, hasMore: false });
  });

  it('skips continuation bytes when an expired cursor is clamped mid code point', () => {
    const ring = new OutputRing({ capBytes: 5 });
    ring.append(enc('ab€cd')); // € = 3 bytes, total 7; window starts at 2 (the lead byte)
    ring.append(enc('e')); // window starts at 3: inside €
    const page = ring.read(0, { limitBytes: 100 });
    expect(page.data.toString()).toBe('cde');
    expect(page.cursorExpired).toBe(true);
  });

  it('matches a byte-array model under random appends, clears and reads (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant('append' as const), bytes: fc.uint8Array({ maxLength: 200 }) }),
            fc.record({ op: fc.constant('clear' as const) }),
          ),
          { maxLength: 40 },
        ),
        fc.nat(),
        fc.integer({ min: 1, max: 400 }),
        (cap, ops, afterSeed, limit) => {
          const ring = new OutputRing({ capBytes: cap });
          const all: number[] = [];
          let start = 0;
          for (const o of ops) {
            if (o.op === 'append') {
              ring.append(o.bytes);
              all.push(...o.bytes);
              start = Math.max(start, all.length - cap);
            } else {
              ring.clear();
              start = all.length;
            }
          }
          expect([ring.startCursor, ring.endCursor]).toEqual([start, all.length]);
          expect([...ring.slice(0)]).toEqual(all.slice(start));
          const after = all.length === 0 ? 0 : afterSeed % (all.length + 1);
          const page = ring.read(after, { limitBytes: limit, end: ring.endCursor });
          expect(page.cursorExpired).toBe(after < start);
          expect(page.start).toBeGreaterThanOrEqual(Math.max(after, start));
          expect(page.end - page.start).toBeLessThanOrEqual(limit + 3);
          expect([...page.data]).toEqual(all.slice(page.start, page.end));
        },
      ),
    );
  });

  it('pages of valid UTF-8 decode cleanly and concatenate to the input (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.array(fc.nat({ max: 50 }), { maxLength: 20 }),
        fc.integer({ min: 1, max: 16 }),
        (text, cuts, limit) => {
          const bytes = enc(text);
          const ring = new OutputRing();
          let pos = 0;
          let out = '';
          let cursor = 0;
          const drain = () => {
            for (;;) {
              const page = ring.read(cursor, { limitBytes: limit });
              expect(page.end - page.start).toBeLessThanOrEqual(limit + 3);
              const decoded = new TextDecoder('utf-8', { fatal: true }).decode(page.data);
              out += decoded;
              cursor = page.end;
              if (!page.hasMore) break;
            }
          };
          for (const cut of cuts) {
            const next = Math.min(bytes.length, pos + cut);
            ring.append(bytes.subarray(pos, next));
            pos = next;
            drain();
          }
          ring.append(bytes.subarray(pos));
          drain();
          expect(out).toBe(text);
          expect(cursor).toBe(bytes.length);
        },
      ),
    );
  });
  it('views: the same bytes as slice, as uncopied page views that a pin keeps intact through eviction and reuse', () => {
    const ring = new OutputRing({ capBytes: 200 * 1024 });
    const all = Buffer.alloc(600 * 1024);
    for (let i = 0; i < all.length; i++) all[i] = i % 251;
    ring.append(all.subarray(0, 150 * 1024));
    const views = ring.views(1000, 140 * 1024);
    using _pin = ring.pin(() => 1000);
    expect(views.length).toBeGreaterThan(1);
    const joined = Buffer.concat(views);
    expect(joined.equals(ring.slice(1000, 140 * 1024))).toBe(true);
    ring.append(all.subarray(150 * 1024, 300 * 1024));
    ring.clear();
    ring.append(all.subarray(300 * 1024));
    expect(Buffer.concat(views).equals(joined)).toBe(true);
    expect(ring.slice(ring.startCursor).equals(all.subarray(all.length - 200 * 1024))).toBe(true);
  });

  it('reuses evicted full-size pages once at its cap, so a flood stops allocating', () => {
    const ring = new OutputRing({ capBytes: 256 * 1024 });
    const chunk = Buffer.alloc(4096, 7);
    const seen = new Set<ArrayBufferLike>();
    let fresh = 0;
    for (let i = 0; i < 1000; i++) {
      ring.append(chunk);
      const last = ring.views(ring.endCursor - 1)[0]!.buffer;
      if (!seen.has(last)) fresh++;
      seen.add(last);
    }
    // ~4 MB went through a 256 KiB ring: without reuse that would be ~60 page allocations.
    expect(fresh).toBeLessThanOrEqual(12);
    expect(ring.allocatedBytes).toBeLessThanOrEqual(256 * 1024 + 6 * 64 * 1024);
    expect(ring.slice(ring.startCursor).every((b) => b === 7)).toBe(true);
  });

  it('never reuses a page a pin may still read; the pin released, reuse resumes', () => {
    const ring = new OutputRing({ capBytes: 128 * 1024 });
    const a = Buffer.alloc(64 * 1024, 0x61);
    for (let i = 0; i < 10; i++) ring.append(a); // past the small first pages, at the cap
    const cursor = ring.endCursor - 64 * 1024;
    const held = ring.views(cursor, ring.endCursor);
    const pin = ring.pin(() => cursor);
    const b = Buffer.alloc(64 * 1024, 0x62);
    for (let i = 0; i < 8; i++) ring.append(b);
    expect(held.every((v) => v.every((x) => x === 0x61))).toBe(true);
    pin[Symbol.dispose]();
    const before = new Set(ring.views(ring.startCursor).map((v) => v.buffer));
    for (let i = 0; i < 8; i++) ring.append(b);
    const after = ring.views(ring.startCursor).map((v) => v.buffer);
    // With nothing pinned, new output lands in pages that were evicted (not all fresh ones).
    expect(after.some((buf) => !before.has(buf))).toBe(true);
    expect(ring.slice(ring.startCursor).every((x) => x === 0x62)).toBe(true);
  });
});
