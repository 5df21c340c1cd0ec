import { closeSync, openSync } from 'node:fs';
import { fileBytes, lastLineBefore, linesBackward, linesForward, type ByteSource, type Line } from './line-scan.js';
import { GzSegment } from './gz-segment.js';
import type { SegmentFile } from './segment-files.js';

/**
 * Reads of one sealed segment that never hold it whole: a plain file is read in chunks through
 * its own fd (which keeps the bytes even if a compaction gzips and unlinks the file meanwhile); a
 * .gz is read member by member through `openGz` (the caller's small cache of opened segments),
 * whole only when it was not written in members. A sealed segment cannot grow, so its
 * unterminated last line is a (damaged) record, as the reference counts it.
 */
export class SegmentReads {
  constructor(private readonly openGz: (seg: SegmentFile) => GzSegment = (seg) => GzSegment.open(seg.path)) {}

  /** Visit every line from byte `start`; returns the segment's length (nothing is visited when `start` is past it). */
  eachLineFrom(seg: SegmentFile, start: number, visit: (line: Line) => void): number {
    return this.withBytes(seg, (bytes) => {
      const size = bytes.size;
      if (start <= size) for (const line of linesForward(bytes, start, size, true)) visit(line);
      return size;
    });
  }

  /** Every line, oldest first. */
  *forward(seg: SegmentFile): Generator<Line> {
    yield* this.linesOf(seg, (bytes) => linesForward(bytes, 0, bytes.size, true));
  }

  /** Every line, newest first. */
  *backward(seg: SegmentFile): Generator<Line> {
    yield* this.linesOf(seg, (bytes) => linesBackward(bytes, bytes.size, true));
  }

  /** Bytes `[off, off + len)`; fewer when the segment is shorter. */
  range(seg: SegmentFile, off: number, len: number): Buffer {
    return this.withBytes(seg, (bytes) => bytes.slice(off, off + len));
  }

  /** The segment's length and the line that ends just before byte `end` (a newline at end - 1). */
  lineEndingAt(seg: SegmentFile, end: number): { size: number; line: Buffer | undefined } {
    return this.withBytes(seg, (bytes) => {
      const size = bytes.size;
      return { size, line: end === 0 || end > size ? undefined : lastLineBefore(bytes, end) };
    });
  }

  /** `use` given the segment's bytes; a plain segment's fd is closed after. */
  private withBytes<T>(seg: SegmentFile, use: (bytes: ByteSource) => T): T {
    if (seg.compressed) return use(this.openGz(seg));
    const fd = openSync(seg.path, 'r');
    try {
      return use(fileBytes(fd));
    } finally {
      closeSync(fd);
    }
  }

  /** The lines `walk` finds in the segment's bytes; a plain segment's fd is closed when the walk ends or is left. */
  private *linesOf(seg: SegmentFile, walk: (bytes: ByteSource) => Iterable<Line>): Generator<Line> {
    if (seg.compressed) {
      yield* walk(this.openGz(seg));
      return;
    }
    const fd = openSync(seg.path, 'r');
    try {
      yield* walk(fileBytes(fd));
    } finally {
      closeSync(fd);
    }
  }
}
