import { completeBoundary, skipContinuation } from './utf8.js';

export const DEFAULT_RING_CAP_BYTES = 10 * 1024 * 1024;
const MIN_PAGE = 4 * 1024;
const MAX_PAGE = 64 * 1024;
/** Evicted full-size pages kept for reuse. A ring at its cap evicts about one page per new one. */
const MAX_FREE_PAGES = 4;

export interface OutputRingOptions {
  /** Retained bytes; older output falls out of the window. Default 10 MiB. */
  readonly capBytes?: number;
}

export interface RingPage {
  /** Raw bytes in [start, end). */
  readonly data: Buffer;
  readonly start: number;
  /** Exclusive; never inside a UTF-8 code point. */
  readonly end: number;
  /** More output exists between `end` and the page's upper bound. */
  readonly hasMore: boolean;
  /** The requested cursor had already fallen out of the retained window (or was cleared). */
  readonly cursorExpired: boolean;
}

export interface ReadOptions {
  /** Page size; the page may run up to 3 bytes past it to finish a code point. */
  readonly limitBytes: number;
  /** Upper bound (exclusive), e.g. a pinned replay end. Default: the UTF-8-complete live end. */
  readonly end?: number;
}

interface Page {
  readonly buf: Buffer;
  readonly start: number;
  len: number;
}

interface FreePage {
  readonly buf: Buffer;
  /** Cursor after the last byte the page held: a pin before it may still be reading it. */
  readonly end: number;
}

/**
 * A session's output, addressed by absolute byte cursors counted from session start. Memory
 * grows page by page as output arrives (small pages first, so idle agents cost little) and is
 * bounded by `capBytes`; nothing parses the bytes here, rendering happens on request.
 *
 * Once a flooding session reaches its cap, evicted full-size pages are reused for new output:
 * touching freshly allocated memory (page faults, GC of external memory) cost more than the
 * copy itself. A page is reused only when no pin (see `pin`) may still read its bytes.
 */
export class OutputRing {
  readonly capBytes: number;
  private pages: Page[] = [];
  private head = 0;
  private _start = 0;
  private _end = 0;
  private free: FreePage[] = [];
  private pins: Array<() => number> = [];

  constructor(options: OutputRingOptions = {}) {
    this.capBytes = Math.max(1, Math.floor(options.capBytes ?? DEFAULT_RING_CAP_BYTES));
  }

  /** Oldest retained cursor. */
  get startCursor(): number {
    return this._start;
  }
  /** Cursor after the last byte ever written (exclusive). */
  get endCursor(): number {
    return this._end;
  }
  get retainedBytes(): number {
    return this._end - this._start;
  }
  /** Bytes of memory currently held by pages (for RSS accounting). */
  get allocatedBytes(): number {
    let n = 0;
    for (let i = this.head; i < this.pages.length; i++) n += this.pages[i]!.buf.byteLength;
    for (const f of this.free) n += f.buf.byteLength;
    return n;
  }

  /**
   * Declares that views from `views()` may still be read (e.g. queued on a socket) from cursor
   * `oldestInUse()` on. Pages holding bytes at or after it are never reused while the pin is
   * held; dispose the pin once the views are no longer read.
   */
  pin(oldestInUse: () => number): Disposable {
    this.pins = [...this.pins, oldestInUse];
    return {
      [Symbol.dispose]: () => {
        this.pins = this.pins.filter((p) => p !== oldestInUse);
      },
    };
  }

  append(chunk: Uint8Array): void {
    let offset = 0;
    while (offset < chunk.byteLength) {
      let page = this.pages[this.pages.length - 1];
      if (!page || this.pages.length === this.head || page.len === page.buf.byteLength) {
        const prev = page && this.pages.length > this.head ? page.buf.byteLength : MIN_PAGE / 2;
        const size = Math.min(MAX_PAGE, Math.max(MIN_PAGE, prev * 2));
        page = { buf: (size === MAX_PAGE && this.reusablePage()) || Buffer.allocUnsafe(size), start: this._end, len: 0 };
        this.pages.push(page);
      }
      const n = Math.min(page.buf.byteLength - page.len, chunk.byteLength - offset);
      // The common PTY read fits the current page whole: copy it without making a view first.
      page.buf.set(n === chunk.byteLength ? chunk : chunk.subarray(offset, offset + n), page.len);
      page.len += n;
      offset += n;
      this._end += n;
    }
    if (this._end - this._start > this.capBytes) this.evictBefore(this._end - this.capBytes);
  }

  /** `terminal_clear`: forget retained output; cursors keep counting from where they were. */
  clear(): void {
    this.evictBefore(this._end);
  }

  /** The live end minus any incomplete trailing code point. */
  completeEnd(): number {
    return completeBoundary((c) => this.byteAt(c), this._start, this._end, this._end);
  }

  /** Raw bytes in [from, to), clamped to the retained window. */
  slice(from: number, to: number = this._end): Buffer {
    const a = Math.max(from, this._start);
    const b = Math.min(to, this._end);
    if (b <= a) return Buffer.alloc(0);
    const parts = this.views(a, b);
    return parts.length === 1 ? Buffer.from(parts[0]!) : Buffer.concat(parts, b - a);
  }

  /**
   * The bytes in [from, to) as views of the ring's own pages, without copying: for writing
   * straight to a socket. Retained bytes are never overwritten; after they fall out of the
   * window their page may be reused, so whoever keeps views beyond the current call must hold
   * a `pin` covering them.
   */
  views(from: number, to: number = this._end): Buffer[] {
    const a = Math.max(from, this._start);
    const b = Math.min(to, this._end);
    if (b <= a) return [];
    const parts: Buffer[] = [];
    let i = this.findPage(a);
    let c = a;
    while (c < b) {
      const page = this.pages[i++]!;
      const lo = c - page.start;
      const hi = Math.min(page.len, b - page.start);
      parts.push(page.buf.subarray(lo, hi));
      c = page.start + hi;
    }
    return parts;
  }

  /**
   * One page after `after` (terminal_since / terminal_replay). An expired cursor is clamped to
   * the retained start and reported; a cursor past the end reads nothing.
   */
  read(after: number, options: ReadOptions): RingPage {
    const byteAt = (c: number) => this.byteAt(c);
    const upperRaw = Math.min(options.end ?? this._end, this._end);
    const upper = options.end === undefined ? this.completeEnd() : upperRaw;
    const cursorExpired = after < this._start;
    let start = Math.max(after, this._start);
    if (start >= upper) {
      const at = Math.min(start, this._end);
      return { data: Buffer.alloc(0), start: at, end: at, hasMore: false, cursorExpired };
    }
    if (cursorExpired) start = skipContinuation(byteAt, start, upper);
    const limit = Math.max(1, Math.floor(options.limitBytes));
    let stop = Math.min(upper, start + limit);
    if (stop < upper) stop = completeBoundary(byteAt, start, stop, upper);
    return { data: this.slice(start, stop), start, end: stop, hasMore: stop < upper, cursorExpired };
  }

  private byteAt(cursor: number): number {
    const page = this.pages[this.findPage(cursor)]!;
    return page.buf[cursor - page.start]!;
  }

  private findPage(cursor: number): number {
    let lo = this.head;
    let hi = this.pages.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.pages[mid]!.start <= cursor) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The oldest evicted full-size page, if no pin may still read it. */
  private reusablePage(): Buffer | undefined {
    const oldest = this.free[0];
    if (!oldest) return undefined;
    for (const pin of this.pins) if (pin() < oldest.end) return undefined;
    this.free.shift();
    return oldest.buf;
  }

  private evictBefore(cursor: number): void {
    this._start = cursor;
    while (this.head < this.pages.length) {
      const page = this.pages[this.head]!;
      if (page.start + page.len > cursor) break;
      if (page.buf.byteLength === MAX_PAGE && this.free.length < MAX_FREE_PAGES) this.free.push({ buf: page.buf, end: page.start + page.len });
      this.head++;
    }
    if (this.head > 32 || this.head === this.pages.length) {
      this.pages = this.pages.slice(this.head);
      this.head = 0;
    }
  }
}
