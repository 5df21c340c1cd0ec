import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { ledgerError, LedgerErrorCodes } from '../errors.js';
import type { LedgerPaths } from '../paths.js';
import { completeEnd, fileLinesBackward, FileLineReader, type LineSpan } from './line-scan.js';
import { listSegments, SegmentCache, type SegmentFile } from './segment-files.js';
import { SegmentReads } from './segment-reads.js';
import { decodeLine } from './line-codec.js';
import type { LedgerEvent } from '../types.js';

/** A line located in the ledger: src is a segment seq, or 0 for the active file. */
export type SourcedLine = LineSpan & { src: number; bytes: Buffer };

export const ACTIVE_SRC = 0;

/** The largest decode of new active records kept for the next follower (one group-commit batch). */
const SHARED_DECODE_MAX_EVENTS = 512;

/**
 * The read boundary shared by every reader: sealed segments in sequence order, then the active
 * file. Segment discovery and reads go through here so a concurrent rotation cannot hide events.
 */
export class LedgerFiles {
  private segmentList: SegmentFile[] | undefined;
  /** Opened .gz segments and the pieces they inflated: plain ones are read in chunks, never held. */
  private readonly cache = new SegmentCache(2);
  private readonly reads = new SegmentReads((seg) => this.cache.get(seg));
  private activeFd: number | undefined;
  private lastActiveEvents: { ino: number; start: number; size: number; events: LedgerEvent[]; end: number } | undefined;
  private activeIno = -1;

  constructor(readonly paths: LedgerPaths) {}

  segments(): SegmentFile[] {
    this.segmentList ??= listSegments(this.paths.segmentsDir);
    return this.segmentList;
  }

  /**
   * Events of the active file's complete records from `start`, and where those records end.
   * Every follower of a ledger polls the same new bytes after an append, so the last answer is
   * kept (when it is one batch or less): N subscribers cost one read and one decode of each
   * event, not N. The events are shared between the callers and must not be changed.
   */
  activeEventsFrom(start: number): { events: readonly LedgerEvent[]; end: number } {
    const { ino, size } = this.activeReadFd();
    const last = this.lastActiveEvents;
    if (last && last.ino === ino && last.start === start && last.size === size) return last;
    const { lines, reader } = this.activeLinesFrom(start, size);
    const events: LedgerEvent[] = [];
    for (const line of lines) {
      const decoded = decodeLine(line.bytes.toString('utf8'));
      if (decoded.ok) events.push(decoded.event); // damage is reported by integrity(), not streamed
    }
    const answer = { ino, start, size, events, end: reader.tailStart };
    this.lastActiveEvents = events.length <= SHARED_DECODE_MAX_EVENTS ? answer : undefined;
    return answer;
  }

  /** Bytes of decompressed .gz segments held for reads (plain segments are never held). */
  get cachedSegmentBytes(): number {
    return this.cache.bytes;
  }

  /**
   * Forget cached listings after a rotation (ours or another process's). Decompressed segments
   * stay: each is checked against its file when used (`SegmentCache`).
   */
  invalidate(): void {
    this.segmentList = undefined;
    if (this.activeFd !== undefined) closeSync(this.activeFd);
    this.activeFd = undefined;
    this.activeIno = -1;
  }

  segment(seq: number): SegmentFile {
    let seg = this.segments().find((s) => s.seq === seq);
    if (!seg) {
      this.invalidate();
      seg = this.segments().find((s) => s.seq === seq);
    }
    if (!seg) throw ledgerError(LedgerErrorCodes.cursorVanished, `ledger segment ${seq} is missing`, { seq });
    return seg;
  }

  /**
   * Run `read` on segment `seq`; a plain file gzipped (and removed) since we listed it is
   * looked up again once and read from its .gz.
   */
  private withSegment<T>(seq: number, read: (seg: SegmentFile) => T): T {
    try {
      return read(this.segment(seq));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      this.invalidate();
      return read(this.segment(seq));
    }
  }

  /** Visit the lines of segment `seq` from byte `start` (in chunks); returns the segment's length. */
  segmentLinesFrom(seq: number, start: number, visit: (line: LineSpan & { bytes: Buffer }) => void): number {
    return this.withSegment(seq, (seg) => this.reads.eachLineFrom(seg, start, visit));
  }

  /** Segment `seq`'s length and the line ending just before byte `end`. */
  segmentLineEndingAt(seq: number, end: number): { size: number; line: Buffer | undefined } {
    return this.withSegment(seq, (seg) => this.reads.lineEndingAt(seg, end));
  }

  /** Every line of segment `seq` in order, read in chunks (a .gz member by member). */
  *segmentLines(seq: number): Generator<LineSpan & { bytes: Buffer }> {
    yield* this.reads.forward(this.segment(seq));
  }

  /** A read fd on the current active file, reopened when the inode changed (rotation). */
  activeReadFd(): { fd: number; ino: number; size: number } {
    let st;
    try {
      st = statSync(this.paths.active);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      if (this.activeFd !== undefined) closeSync(this.activeFd);
      this.activeFd = undefined;
      this.activeIno = -1;
      return { fd: -1, ino: -1, size: 0 };
    }
    if (this.activeFd === undefined || st.ino !== this.activeIno) {
      if (this.activeFd !== undefined) closeSync(this.activeFd);
      this.activeFd = openSync(this.paths.active, 'r');
      this.activeIno = fstatSync(this.activeFd).ino;
      if (this.activeIno !== st.ino) this.segmentList = undefined;
    }
    return { fd: this.activeFd, ino: this.activeIno, size: fstatSync(this.activeFd).size };
  }

  /**
   * Bytes of one record. The fd opened by the last `activeReadFd()` (every query starts with
   * one) is read without looking the path up again: a query reads many records, and an fd
   * still holds the bytes it was opened on even if a rotation renamed the file since. Only a
   * short read looks for the current file.
   */
  readAt(src: number, off: number, len: number): Buffer {
    if (src !== ACTIVE_SRC) return this.withSegment(src, (seg) => this.reads.range(seg, off, len));
    const buf = Buffer.allocUnsafe(len);
    if (this.activeFd !== undefined && readSync(this.activeFd, buf, 0, len, off) === len) return buf;
    const { fd } = this.activeReadFd();
    const n = fd < 0 ? 0 : readSync(fd, buf, 0, len, off);
    if (n !== len) throw ledgerError(LedgerErrorCodes.cursorVanished, `ledger bytes at ${off}+${len} are gone`, { src, off });
    return buf;
  }

  /** Complete lines of the active file from `start`; `tailStart` tells where they ended. */
  activeLinesFrom(start: number, end?: number): { lines: Iterable<SourcedLine>; reader: FileLineReader; size: number } {
    const { fd, size } = this.activeReadFd();
    const reader = new FileLineReader(fd, start, fd < 0 ? start : Math.min(size, end ?? size));
    const lines = (function* () {
      if (fd < 0) return;
      for (const l of reader.lines()) yield { ...l, src: ACTIVE_SRC };
    })();
    return { lines, reader, size };
  }

  /**
   * Segments plus an fd pinned on the active file, taken so that a rotation racing with the
   * listing is detected (the listing changed) and retried. Reading the pinned fd to its end
   * then covers every event appended before the rotation, exactly once.
   */
  private pinnedView(): { segments: SegmentFile[]; fd: number } {
    for (;;) {
      const before = listSegments(this.paths.segmentsDir);
      let fd = -1;
      try {
        fd = openSync(this.paths.active, 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      const after = listSegments(this.paths.segmentsDir);
      if (before.length === after.length && before.every((s, i) => s.seq === after[i]?.seq)) {
        this.segmentList = after;
        return { segments: after, fd };
      }
      if (fd >= 0) closeSync(fd);
    }
  }

  *forward(): Generator<SourcedLine> {
    const { segments, fd } = this.pinnedView();
    try {
      for (const seg of segments) for (const l of this.reads.forward(seg)) yield { ...l, src: seg.seq };
      if (fd < 0) return;
      for (const l of new FileLineReader(fd, 0, fstatSync(fd).size).lines()) yield { ...l, src: ACTIVE_SRC };
    } finally {
      if (fd >= 0) closeSync(fd);
    }
  }

  *backward(): Generator<SourcedLine> {
    const { segments, fd } = this.pinnedView();
    try {
      if (fd >= 0) for (const l of fileLinesBackward(fd, fstatSync(fd).size)) yield { ...l, src: ACTIVE_SRC };
      for (let i = segments.length - 1; i >= 0; i--) {
        const seg = segments[i] as SegmentFile;
        for (const l of this.reads.backward(seg)) yield { ...l, src: seg.seq };
      }
    } finally {
      if (fd >= 0) closeSync(fd);
    }
  }

  /** A nonempty active file that does not end in a newline has a torn tail at `off`. */
  tornTail(): { off: number; len: number } | undefined {
    const { fd, size } = this.activeReadFd();
    if (fd < 0 || size === 0) return undefined;
    const end = completeEnd(fd, size);
    return end === size ? undefined : { off: end, len: size - end };
  }

  close(): void {
    this.invalidate();
    this.cache.clear();
    this.lastActiveEvents = undefined;
  }
}
