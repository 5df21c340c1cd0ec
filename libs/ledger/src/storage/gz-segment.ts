import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { gunzipAtMost, gunzipLimitError } from './bounded-gunzip.js';
import { MAX_INFLATED_SEGMENT_BYTES } from './limits.js';
import type { ByteSource } from './line-scan.js';
import { MEMBER_HEADER_BYTES, MEMBER_TRAILER_BYTES, PIECE_BYTES } from './segment-gzip-file.js';

/** Where one gzip member's bytes are in the file, and which raw bytes of the segment it holds. */
interface Member {
  readonly gzOff: number;
  readonly gzLen: number;
  readonly rawOff: number;
  readonly rawLen: number;
}

/** Inflated members a segment keeps for its next reads: the piece being read and its neighbour. */
const HELD_MEMBERS = 2;

/**
 * A gzipped segment read piece by piece. Our gzip writes members of about 1 MiB that carry their
 * own length in their header (segment-gzip-file.js), so opening one reads a few header and
 * trailer bytes per member and a read inflates only the members it covers: an idle agent's
 * oldest unread Mail in an old segment costs one piece's inflate and one piece's memory, not the
 * whole segment's (issue 20, points 3 and 6). Any other gzip (one member, as the reference and
 * older versions wrote, or a damaged member list) is inflated whole once and held, as before.
 */
export class GzSegment implements ByteSource {
  /** Inflated members, most recently used first. */
  private held: Array<{ index: number; bytes: Buffer }> = [];

  private constructor(
    private readonly path: string,
    private readonly members: readonly Member[],
    /** The whole segment, when it could not be read by members. */
    private readonly whole: Buffer | undefined,
  ) {}

  /** Open the .gz at `path`; `fd`, when given, is an open descriptor of it (its stat identifies the version read). */
  static open(path: string, fd?: number): GzSegment {
    const own = fd === undefined;
    const handle = fd ?? openSync(path, 'r');
    try {
      const size = fstatSync(handle).size;
      const members = memberList(handle, size);
      if (members) return new GzSegment(path, members, undefined);
      const what = `gzip segment ${path}`;
      // Deflate does not shrink data below its size by more than a few bytes per block: a .gz
      // bigger than the limit inflates past it too, and is refused before it is read.
      if (size > MAX_INFLATED_SEGMENT_BYTES) throw gunzipLimitError(what, MAX_INFLATED_SEGMENT_BYTES);
      const whole = gunzipAtMost(readFileSync(handle, { flag: 'r' }), MAX_INFLATED_SEGMENT_BYTES, what);
      return new GzSegment(path, [{ gzOff: 0, gzLen: 0, rawOff: 0, rawLen: whole.length }], whole);
    } finally {
      if (own) closeSync(handle);
    }
  }

  /** The segment's raw length. */
  get size(): number {
    const last = this.members.at(-1);
    return last ? last.rawOff + last.rawLen : 0;
  }

  /** Raw bytes held now (observability and the cache's accounting). */
  get heldBytes(): number {
    return this.whole ? this.whole.length : this.held.reduce((n, m) => n + m.bytes.length, 0);
  }

  get memberCount(): number {
    return this.members.length;
  }

  /** Where member `index` starts and ends in the raw segment. */
  memberSpan(index: number): { start: number; end: number } {
    const m = this.members[index]!;
    return { start: m.rawOff, end: m.rawOff + m.rawLen };
  }

  /** The member holding raw byte `off`, or `memberCount` when `off` is at or past the end. */
  memberAt(off: number): number {
    let lo = 0;
    let hi = this.members.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const m = this.members[mid]!;
      if (m.rawOff + m.rawLen <= off) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Raw bytes `[start, end)`, clamped to the segment; a subarray when one member holds them. */
  slice(start: number, end: number): Buffer {
    const parts = [...this.piecesFrom(start, end)];
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  /** Raw bytes `[start, end)`, clamped, a member at a time: a line walk holds one inflated piece, not the segment. */
  *piecesFrom(start: number, end: number): Generator<Buffer> {
    end = Math.min(end, this.size);
    for (let i = this.memberAt(start); i < this.members.length && this.members[i]!.rawOff < end; i++) {
      const m = this.members[i]!;
      yield (this.whole ?? this.inflate(i)).subarray(Math.max(start, m.rawOff) - m.rawOff, Math.min(end, m.rawOff + m.rawLen) - m.rawOff);
    }
  }

  /** Raw bytes `[0, end)` a member at a time, the last first. */
  *piecesBefore(end: number): Generator<Buffer> {
    for (let i = end > 0 ? Math.min(this.memberAt(end - 1), this.members.length - 1) : -1; i >= 0; i--) {
      const m = this.members[i]!;
      yield this.slice(m.rawOff, Math.min(end, m.rawOff + m.rawLen));
    }
  }

  private inflate(index: number): Buffer {
    const at = this.held.findIndex((h) => h.index === index);
    if (at >= 0) {
      const [hit] = this.held.splice(at, 1);
      this.held.unshift(hit!);
      return hit!.bytes;
    }
    const m = this.members[index]!;
    const packed = Buffer.allocUnsafe(m.gzLen);
    const fd = openSync(this.path, 'r');
    try {
      if (readSync(fd, packed, 0, m.gzLen, m.gzOff) !== m.gzLen) throw new Error(`gzip member at ${m.gzOff} of ${this.path} is cut short`);
    } finally {
      closeSync(fd);
    }
    // Checks the member's CRC and length, and stops at the length its trailer claims: a member
    // whose deflate holds more is not one our gzip wrote.
    const bytes = gunzipAtMost(packed, m.rawLen, `gzip member at ${m.gzOff} of ${this.path}`);
    if (bytes.length !== m.rawLen) throw new Error(`gzip member at ${m.gzOff} of ${this.path} holds ${bytes.length} bytes, not ${m.rawLen}`);
    this.held.unshift({ index, bytes });
    this.held.length = Math.min(this.held.length, HELD_MEMBERS);
    return bytes;
  }
}

/**
 * The members of a gzip written by our gzip: each header has exactly the extra field "CC" with
 * the member's length, each holds at most a piece, and the lengths chain to the file's end.
 * Undefined for any other file, which is then read whole, within MAX_INFLATED_SEGMENT_BYTES.
 */
function memberList(fd: number, fileSize: number): Member[] | undefined {
  const header = Buffer.alloc(MEMBER_HEADER_BYTES);
  const trailer = Buffer.alloc(4);
  const members: Member[] = [];
  let rawOff = 0;
  for (let gzOff = 0; gzOff < fileSize; ) {
    if (readSync(fd, header, 0, MEMBER_HEADER_BYTES, gzOff) !== MEMBER_HEADER_BYTES) return undefined;
    const ours =
      header[0] === 0x1f && header[1] === 0x8b && header[2] === 8 && header[3] === 4 && header.readUInt16LE(10) === 8 && header[12] === 0x43 && header[13] === 0x43 && header.readUInt16LE(14) === 4;
    if (!ours) return undefined;
    const gzLen = header.readUInt32LE(16);
    if (gzLen < MEMBER_HEADER_BYTES + MEMBER_TRAILER_BYTES || gzOff + gzLen > fileSize) return undefined;
    if (readSync(fd, trailer, 0, 4, gzOff + gzLen - 4) !== 4) return undefined;
    const rawLen = trailer.readUInt32LE(0);
    if (rawLen > PIECE_BYTES) return undefined;
    members.push({ gzOff, gzLen, rawOff, rawLen });
    rawOff += rawLen;
    gzOff += gzLen;
  }
  return members.length > 0 ? members : undefined;
}
