import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** A complete line's byte range (without the trailing newline). */
export interface LineSpan {
  off: number;
  len: number;
}

const NL = 0x0a;
const CHUNK = 1 << 20;
/**
 * A backward walk starts with this much and doubles up to CHUNK: most callers want the last
 * line or the newest few (a follower checking its place after a rotation, a tail), and reading
 * a megabyte for one line cost every such call a large allocation and copy.
 */
const FIRST_BACKWARD_CHUNK = 16 * 1024;

/**
 * Every complete line of an in-memory buffer, with offsets relative to `base`. With
 * `includeTail`, bytes after the last newline count as a final line: a sealed segment cannot
 * grow, so its unterminated end is a (damaged) record, as the reference counts it.
 */
export function* linesOfBuffer(buf: Buffer, base = 0, includeTail = false): Generator<LineSpan & { bytes: Buffer }> {
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
 * Read the complete lines of a file from `start` up to `end`, in big chunks. Bytes after the
 * last newline (a torn tail) are not yielded; the caller learns where complete data ends from
 * `tailStart` on the returned iterator state.
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

  *lines(): Generator<LineSpan & { bytes: Buffer }> {
    let carry: Buffer = Buffer.alloc(0);
    let carryOff = this.start;
    let pos = this.start;
    while (pos < this.end) {
      const size = Math.min(CHUNK, this.end - pos);
      const chunk = Buffer.allocUnsafe(size);
      const n = readSync(this.fd, chunk, 0, size, pos);
      if (n <= 0) break;
      pos += n;
      const buf = carry.length ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      let consumed = 0;
      for (const line of linesOfBuffer(buf, carryOff)) {
        yield line;
        consumed = line.off - carryOff + line.len + 1;
      }
      carry = Buffer.from(buf.subarray(consumed));
      carryOff += consumed;
      this.tailStart = carryOff;
    }
  }
}

/** Open, read complete lines from `start`, close. For one-shot scans of the active file. */
export function* fileLines(path: string, start = 0): Generator<LineSpan & { bytes: Buffer }> {
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
export function* fileLinesBackward(fd: number, end: number): Generator<LineSpan & { bytes: Buffer }> {
  let pos = completeEnd(fd, end);
  // `pending` holds bytes [pos, hi) that end with the newline of a not yet yielded line.
  let pending: Buffer = Buffer.alloc(0);
  let want = FIRST_BACKWARD_CHUNK;
  while (pos > 0) {
    const size = Math.min(want, pos);
    want = Math.min(want * 2, CHUNK);
    pos -= size;
    const chunk = Buffer.allocUnsafe(size);
    readSync(fd, chunk, 0, size, pos);
    const buf = pending.length ? Buffer.concat([chunk, pending]) : chunk;
    let e = buf.length - 1; // index of the newline that ends the current line
    while (e > 0) {
      const s = buf.lastIndexOf(NL, e - 1);
      if (s < 0) break;
      yield { off: pos + s + 1, len: e - s - 1, bytes: buf.subarray(s + 1, e) };
      e = s;
    }
    pending = Buffer.from(buf.subarray(0, e + 1));
  }
  if (pending.length > 0) yield { off: 0, len: pending.length - 1, bytes: pending.subarray(0, pending.length - 1) };
}
