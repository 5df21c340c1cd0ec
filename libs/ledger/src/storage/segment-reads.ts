import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { completeEnd, fileLinesBackward, FileLineReader, linesOfBuffer, type LineSpan } from './line-scan.js';
import { GzSegment } from './gz-segment.js';
import type { SegmentFile } from './segment-files.js';

type Line = LineSpan & { bytes: Buffer };

const NL = 0x0a;

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
    if (seg.compressed) {
      const gz = this.openGz(seg);
      if (start <= gz.size) for (const line of gzLinesFrom(gz, start)) visit(line);
      return gz.size;
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
      yield* gzLinesFrom(this.openGz(seg), 0);
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
      yield* gzLinesBackward(this.openGz(seg));
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
    if (seg.compressed) return this.openGz(seg).slice(off, off + len);
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
      const gz = this.openGz(seg);
      if (end === 0 || end > gz.size) return { size: gz.size, line: undefined };
      return { size: gz.size, line: gzLineEndingAt(gz, end) };
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

/** Lines of a .gz from raw byte `start`, member by member; a line across members is joined. */
function* gzLinesFrom(gz: GzSegment, start: number): Generator<Line> {
  let carry: Buffer = Buffer.alloc(0);
  let carryOff = start;
  for (let i = gz.memberAt(start); i < gz.memberCount; i++) {
    const { start: from, end } = gz.memberSpan(i);
    const piece = gz.slice(Math.max(start, from), end);
    const buf = carry.length ? Buffer.concat([carry, piece]) : piece;
    let consumed = 0;
    for (const line of linesOfBuffer(buf, carryOff)) {
      yield line;
      consumed = line.off - carryOff + line.len + 1;
    }
    carry = buf.subarray(consumed);
    carryOff += consumed;
  }
  if (carry.length > 0) yield { off: carryOff, len: carry.length, bytes: carry };
}

/** Lines of a .gz newest first, the unterminated tail (if any) first of all, member by member. */
function* gzLinesBackward(gz: GzSegment): Generator<Line> {
  // `pending` holds the raw bytes from a member's start up to where the next line to yield ends.
  let pending: Buffer = Buffer.alloc(0);
  let atEnd = true; // the next line found ends at the segment's end, not at a newline
  for (let i = gz.memberCount - 1; i >= 0; i--) {
    const { start, end } = gz.memberSpan(i);
    const piece = gz.slice(start, end);
    const buf = pending.length ? Buffer.concat([piece, pending]) : piece;
    let e = buf.length;
    for (let s = e > 0 ? buf.lastIndexOf(NL, e - 1) : -1; s >= 0; s = e > 0 ? buf.lastIndexOf(NL, e - 1) : -1) {
      if (!atEnd || s + 1 < e) yield { off: start + s + 1, len: e - s - 1, bytes: buf.subarray(s + 1, e) };
      atEnd = false;
      e = s;
    }
    pending = buf.subarray(0, e);
  }
  if (!atEnd || pending.length > 0) yield { off: 0, len: pending.length, bytes: pending };
}

/** The line of a .gz that ends just before raw byte `end` (0 < end <= size). */
function gzLineEndingAt(gz: GzSegment, end: number): Buffer {
  for (let i = gz.memberAt(end - 1); ; i--) {
    const from = gz.memberSpan(i).start;
    const buf = gz.slice(from, end);
    const nl = end - from >= 2 ? buf.lastIndexOf(NL, end - from - 2) : -1;
    if (nl >= 0 || from === 0) return buf.subarray(nl + 1, end - from - 1);
  }
}

