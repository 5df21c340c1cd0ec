import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { completeEnd, fileLinesBackward, FileLineReader, linesOfBuffer, type LineSpan } from './line-scan.js';
import type { SegmentFile } from './segment-files.js';

type Line = LineSpan & { bytes: Buffer };

/**
 * Reads of one sealed segment that never hold it whole: a plain file is read in chunks through
 * its own fd (which keeps the bytes even if a compaction gzips and unlinks the file meanwhile);
 * only a .gz is decompressed whole, through `gzBytes` (the caller's small cache). A sealed
 * segment cannot grow, so its unterminated last line is a (damaged) record, as the reference
 * counts it.
 */
export class SegmentReads {
  constructor(private readonly gzBytes: (seg: SegmentFile) => Buffer) {}

  /** Visit every line from byte `start`; returns the segment's length (nothing is visited when `start` is past it). */
  eachLineFrom(seg: SegmentFile, start: number, visit: (line: Line) => void): number {
    if (seg.compressed) {
      const bytes = this.gzBytes(seg);
      if (start <= bytes.length) for (const line of linesOfBuffer(bytes.subarray(start), start, true)) visit(line);
      return bytes.length;
    }
    const fd = openSync(seg.path, 'r');
    try {
      const size = fstatSync(fd).size;
      if (start > size) return size;
      const reader = new FileLineReader(fd, start, size);
      for (const line of reader.lines()) visit(line);
      if (reader.tailStart < size) visit({ off: reader.tailStart, len: size - reader.tailStart, bytes: readRange(fd, reader.tailStart, size - reader.tailStart) });
      return size;
    } finally {
      closeSync(fd);
    }
  }

  /** Every line, oldest first. */
  *forward(seg: SegmentFile): Generator<Line> {
    if (seg.compressed) {
      yield* linesOfBuffer(this.gzBytes(seg), 0, true);
      return;
    }
    const fd = openSync(seg.path, 'r');
    try {
      const size = fstatSync(fd).size;
      const reader = new FileLineReader(fd, 0, size);
      yield* reader.lines();
      if (reader.tailStart < size) yield { off: reader.tailStart, len: size - reader.tailStart, bytes: readRange(fd, reader.tailStart, size - reader.tailStart) };
    } finally {
      closeSync(fd);
    }
  }

  /** Every line, newest first. */
  *backward(seg: SegmentFile): Generator<Line> {
    if (seg.compressed) {
      const lines = [...linesOfBuffer(this.gzBytes(seg), 0, true)];
      for (let j = lines.length - 1; j >= 0; j--) yield lines[j]!;
      return;
    }
    const fd = openSync(seg.path, 'r');
    try {
      const size = fstatSync(fd).size;
      const end = completeEnd(fd, size);
      if (end < size) yield { off: end, len: size - end, bytes: readRange(fd, end, size - end) };
      yield* fileLinesBackward(fd, end);
    } finally {
      closeSync(fd);
    }
  }

  /** Bytes `[off, off + len)`; fewer when the segment is shorter. */
  range(seg: SegmentFile, off: number, len: number): Buffer {
    if (seg.compressed) return this.gzBytes(seg).subarray(off, off + len);
    const fd = openSync(seg.path, 'r');
    try {
      return readRange(fd, off, len);
    } finally {
      closeSync(fd);
    }
  }

  /** The segment's length and the line that ends just before byte `end` (a newline at end - 1). */
  lineEndingAt(seg: SegmentFile, end: number): { size: number; line: Buffer | undefined } {
    if (seg.compressed) {
      const bytes = this.gzBytes(seg);
      if (end === 0 || end > bytes.length) return { size: bytes.length, line: undefined };
      const start = end > 1 ? bytes.lastIndexOf(0x0a, end - 2) + 1 : 0;
      return { size: bytes.length, line: bytes.subarray(start, end - 1) };
    }
    const fd = openSync(seg.path, 'r');
    try {
      const size = fstatSync(fd).size;
      if (end === 0 || end > size) return { size, line: undefined };
      const last = fileLinesBackward(fd, end).next();
      return { size, line: last.done ? undefined : last.value.bytes };
    } finally {
      closeSync(fd);
    }
  }
}

function readRange(fd: number, off: number, len: number): Buffer {
  const buf = Buffer.allocUnsafe(len);
  const n = readSync(fd, buf, 0, len, off);
  return n === len ? buf : buf.subarray(0, Math.max(0, n));
}
