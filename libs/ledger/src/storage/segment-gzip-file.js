// @ts-check
// The gzip of a sealed segment, run on the maintenance thread (maintenance-worker.js) at the
// lowest CPU priority: the deflate of megabytes is maintenance, and on a busy machine it must take
// CPU only when the threads serving requests do not need it (issue 20, point 6). zlib's
// asynchronous API would run on libuv's shared thread pool at normal priority, so the thread
// deflates synchronously itself, one 1 MiB piece at a time (each piece a gzip member: a
// multi-member file, which gunzip, Node's zlib and Python's gzip read as one stream), so memory
// stays bounded by a piece, not a segment. Plain JavaScript for the same reason as
// active-prescan-scan.js.
import { closeSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const PIECE = 1 << 20;

/**
 * Gzip `source` into `target` (mode 0644), synced on disk; returns the bytes written.
 * @param {string} source
 * @param {string} target
 * @returns {number}
 */
export function gzipFile(source, target) {
  const input = openSync(source, 'r');
  try {
    const output = openSync(target, 'w', 0o644);
    try {
      const piece = Buffer.allocUnsafe(PIECE);
      let bytes = 0;
      for (let pos = 0; ; ) {
        const n = Math.max(readSync(input, piece, 0, PIECE, pos), 0);
        if (n === 0 && pos > 0) break;
        const packed = gzipSync(piece.subarray(0, n));
        for (let off = 0; off < packed.length; ) off += writeSync(output, packed, off, packed.length - off);
        bytes += packed.length;
        // An empty segment still gets one (empty) member: a zero-byte file is not a gzip.
        if (n === 0) break;
        pos += n;
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
