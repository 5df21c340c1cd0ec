import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** A complete line's byte range (without the trailing newline). */
export interface LineSpan {
  off: number;
  len: number;
}

export type Line = LineSpan & { bytes: Buffer };

/**
 * Bytes read in pieces, so that a line walk never holds a whole file: a plain file in chunks
 * through its fd, a gzipped segment member by member. Pieces are contiguous and the caller's to
 * keep (the lines it yields are subarrays of them).
 */
export interface ByteSource {
  readonly size: number;
  /** Pieces covering `[start, end)`, first to last; they stop early when the bytes do. */
  piecesFrom(start: number, end: number): Iterable<Buffer>;
  /** Pieces covering `[0, end)`, last to first. */
  piecesBefore(end: number): Iterable<Buffer>;
  /** Bytes `[start, end)`; fewer when the source is shorter. */
  slice(start: number, end: number): Buffer;
}

const NL = 0x0a;
const CHUNK = 1 << 20;
/**
 * A backward walk starts with this much and doubles up to CHUNK: most callers want the last
 * line or the newest few (a follower checking its place after a rotation, a tail), and reading
 * a megabyte for one line cost every such call a large allocation and copy.
 */
const FIRST_BACKWARD_CHUNK = 16 * 1024;

/** A plain file's bytes through `fd`, which the caller opens and closes. */
export function fileBytes(fd: number): ByteSource {
  return {
    get size() {
      return fstatSync(fd).size;
    },
    *piecesFrom(start, end) {
      for (let pos = start; pos < end; ) {
        const size = Math.min(CHUNK, end - pos);
        const chunk = Buffer.allocUnsafe(size);
        const n = readSync(fd, chunk, 0, size, pos);
        if (n <= 0) return;
        pos += n;
        yield chunk.subarray(0, n);
      }
    },
    *piecesBefore(end) {
      let want = FIRST_BACKWARD_CHUNK;
      for (let pos = end; pos > 0; ) {
        const size = Math.min(want, pos);
        want = Math.min(want * 2, CHUNK);
        pos -= size;
        const chunk = Buffer.allocUnsafe(size);
        readSync(fd, chunk, 0, size, pos);
        yield chunk;
      }
    },
    slice(start, end) {
      const buf = Buffer.allocUnsafe(end - start);
      const n = readSync(fd, buf, 0, buf.length, start);
      return n === buf.length ? buf : buf.subarray(0, Math.max(0, n));
    },
  };
}

/**
 * Every complete line of an in-memory buffer, with offsets relative to `base`. With
 * `includeTail`, bytes after the last newline count as a final line: a sealed segment cannot
 * grow, so its unterminated end is a (damaged) record, as the reference counts it.
 */
export function* linesOfBuffer(buf: Buffer, base = 0, includeTail = false): Generator<Line> {
  let pos = 0;
  for (;;) {
    const nl = buf.indexOf(NL, pos);
    if (nl < 0) {
      if (includeTail && pos < buf.length) yield { off: base + pos, len: buf.length - pos, bytes: buf.subarray(pos) };
      return;
    }
    yield { off: base + pos, len: nl - pos, bytes: buf.subarray(pos, nl) };
    pos = nl + 1;
  }
}

/**
 * The lines of `source` from byte `start` up to `end`, oldest first, a line across pieces joined.
 * With `includeTail`, bytes after the last newline come last as a line (see linesOfBuffer).
 * Returns where the complete lines end.
 */
export function* linesForward(source: ByteSource, start: number, end: number, includeTail: boolean): Generator<Line, number> {
  let carry: Buffer = Buffer.alloc(0);
  let carryOff = start;
  for (const piece of source.piecesFrom(start, end)) {
    const buf = carry.length ? Buffer.concat([carry, piece]) : piece;
    let consumed = 0;
    for (const line of linesOfBuffer(buf, carryOff)) {
      yield line;
      consumed = line.off - carryOff + line.len + 1;
    }
    carry = buf.subarray(consumed);
    carryOff += consumed;
  }
  if (includeTail && carry.length > 0) yield { off: carryOff, len: carry.length, bytes: carry };
  return carryOff;
}

/**
 * The lines of `source` before byte `end`, newest first, a line across pieces joined. With
 * `includeTail`, bytes after the last newline come first as a line; without, they are skipped.
 */
export function* linesBackward(source: ByteSource, end: number, includeTail: boolean): Generator<Line> {
  // `pending` holds the bytes from the current piece's start up to where the next line to yield ends.
  let pending: Buffer = Buffer.alloc(0);
  let pos = end;
  let inTail = true; // no newline met yet: the bytes seen so far are the unterminated tail
  for (const piece of source.piecesBefore(end)) {
    pos -= piece.length;
    const buf = pending.length ? Buffer.concat([piece, pending]) : piece;
    let e = buf.length;
    for (let s = e > 0 ? buf.lastIndexOf(NL, e - 1) : -1; s >= 0; s = e > 0 ? buf.lastIndexOf(NL, e - 1) : -1) {
      if (!inTail || (includeTail && s + 1 < e)) yield { off: pos + s + 1, len: e - s - 1, bytes: buf.subarray(s + 1, e) };
      inTail = false;
      e = s;
    }
    // A tail that is skipped is not held while its start is sought (a long torn write).
    pending = inTail && !includeTail ? Buffer.alloc(0) : buf.subarray(0, e);
  }
  if (!inTail || (includeTail && pending.length > 0)) yield { off: pos, len: pending.length, bytes: pending };
}

/** The last complete line before byte `end` (the one its newline ends, when byte `end - 1` is one). */
export function lastLineBefore(source: ByteSource, end: number): Buffer | undefined {
  const last = linesBackward(source, end, false).next();
  return last.done ? undefined : last.value.bytes;
}

/**
 * Read the complete lines of a file from `start` up to `end`, in big chunks. Bytes after the
 * last newline (a torn tail) are not yielded; the caller learns where complete data ends from
 * `tailStart` once the lines are read.
 */
export class FileLineReader {
  tailStart: number;

  constructor(
    private readonly fd: number,
    private readonly start: number,
    private readonly end: number,
  ) {
    this.tailStart = start;
  }

  *lines(): Generator<Line> {
    this.tailStart = yield* linesForward(fileBytes(this.fd), this.start, this.end, false);
  }
}

/** Open, read complete lines from `start`, close. For one-shot scans of the active file. */
export function* fileLines(path: string, start = 0): Generator<Line> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    const end = fstatSync(fd).size;
    yield* new FileLineReader(fd, start, end).lines();
  } finally {
    closeSync(fd);
  }
}

/** Offset just past the last newline at or before `end` (0 when there is none). */
export function completeEnd(fd: number, end: number): number {
  let pos = end;
  // A record's file nearly always ends with its newline: a small first look finds it.
  let want = 4 * 1024;
  while (pos > 0) {
    const size = Math.min(want, pos);
    want = 64 * 1024;
    pos -= size;
    const chunk = Buffer.allocUnsafe(size);
    readSync(fd, chunk, 0, size, pos);
    const nl = chunk.lastIndexOf(NL);
    if (nl >= 0) return pos + nl + 1;
  }
  return 0;
}

/**
 * Complete lines of a file read from the end towards the start, in chunks, so a newest-first
 * walk never loads a whole large file. A trailing partial line is skipped (it is not a record).
 */
export function fileLinesBackward(fd: number, end: number): Generator<Line> {
  return linesBackward(fileBytes(fd), end, false);
}
