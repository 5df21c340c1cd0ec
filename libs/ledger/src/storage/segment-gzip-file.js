// @ts-check
// The gzip of a sealed segment, run on the maintenance thread (maintenance-worker.js) at the
// lowest CPU priority: the deflate of megabytes is maintenance, and on a busy machine it must take
// CPU only when the threads serving requests do not need it (issue 20, point 6). zlib's
// asynchronous API would run on libuv's shared thread pool at normal priority, so the thread
// deflates synchronously itself, one piece of about 1 MiB at a time, so memory stays bounded by a
// piece, not a segment. Plain JavaScript for the same reason as active-prescan-scan.js.
//
// Each piece is a gzip member of its own (a multi-member file, which gunzip, Node's zlib and
// Python's gzip read as one stream) that ends after a newline where the piece has one, and each
// member's header carries the member's length in an extra field (subfield "CC", 4 bytes,
// little-endian; the scheme of BGZF). A reader can then hop from member to member reading a few
// header bytes and inflate only the piece it needs (gz-members.ts), instead of a whole segment.
import { closeSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';
import { crc32, deflateRawSync } from 'node:zlib';

const NL = 0x0a;
/** Raw bytes per member, at most. */
export const PIECE_BYTES = 1 << 20;
/** A member's header: the 10 fixed bytes, XLEN, and one 8-byte subfield ("CC", length 4, the member's length). */
export const MEMBER_HEADER_BYTES = 20;
/** A member's trailer: CRC-32 and length of its raw bytes. */
export const MEMBER_TRAILER_BYTES = 8;

/**
 * One gzip member holding `raw`, its own length in its header.
 * @param {Buffer} raw
 * @returns {Buffer}
 */
export function gzipMember(raw) {
  const body = deflateRawSync(raw);
  const member = Buffer.allocUnsafe(MEMBER_HEADER_BYTES + body.length + MEMBER_TRAILER_BYTES);
  // ID1 ID2, CM deflate, FLG FEXTRA, MTIME 0, XFL 0, OS unknown, XLEN 8.
  member.set([0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 8, 0, 0x43, 0x43, 4, 0], 0);
  member.writeUInt32LE(member.length, 16);
  body.copy(member, MEMBER_HEADER_BYTES);
  member.writeUInt32LE(crc32(raw), member.length - 8);
  member.writeUInt32LE(raw.length, member.length - 4);
  return member;
}

/**
 * Gzip `source` into `target` (mode 0644), synced on disk; returns the bytes written.
 * `pieceBytes` is for tests: small pieces exercise lines across members.
 * @param {string} source
 * @param {string} target
 * @param {number} [pieceBytes]
 * @returns {number}
 */
export function gzipFile(source, target, pieceBytes = PIECE_BYTES) {
  const input = openSync(source, 'r');
  try {
    const output = openSync(target, 'w', 0o644);
    try {
      const window = Buffer.allocUnsafe(pieceBytes);
      let bytes = 0;
      for (let pos = 0; ; ) {
        const n = Math.max(readSync(input, window, 0, pieceBytes, pos), 0);
        if (n === 0 && pos > 0) break;
        // A full window ends after its last newline; a line longer than a window is cut where
        // the window ends, and the file's last window takes what is left.
        const nl = n === pieceBytes ? window.lastIndexOf(NL, n - 1) : -1;
        const cut = nl >= 0 ? nl + 1 : n;
        const member = gzipMember(window.subarray(0, cut));
        for (let off = 0; off < member.length; ) off += writeSync(output, member, off, member.length - off);
        bytes += member.length;
        // An empty segment still gets one (empty) member: a zero-byte file is not a gzip.
        if (n === 0) break;
        pos += cut;
      }
      fsyncSync(output);
      return bytes;
    } finally {
      closeSync(output);
    }
  } finally {
    closeSync(input);
  }
}
