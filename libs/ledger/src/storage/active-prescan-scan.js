// @ts-check
// A rotation's strict pre-read of the active file, run on the maintenance thread
// (maintenance-worker.js): decoding a few megabytes of JSON lines costs tens of milliseconds of
// CPU and garbage, which on the daemon's thread would delay every request served meanwhile
// (issue 20, point 6). Plain JavaScript because the library's tests run its TypeScript sources
// directly and Node 20 cannot load TypeScript in a worker thread; bundled into that worker.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { eventShapeProblem } from './event-shape.js';

const NL = 0x0a;
const CHUNK = 1 << 20;

/**
 * The file's complete lines, checked as it goes: one buffer, reused for every read, holds the
 * unfinished line carried over and the next chunk. A buffer per chunk (and a copy per carry)
 * would leave every megabyte of the file as external memory until the thread's next collection:
 * about 10 MiB of resident memory for a 7 MB segment, for nothing.
 * @param {number} fd
 * @param {number} size
 * @returns {{ end: number, lines: number } | null}
 */
function scan(fd, size) {
  let buf = Buffer.allocUnsafe(Math.min(2 * CHUNK, Math.max(size, 1)));
  let have = 0; // bytes of buf holding the carried-over start of a line
  let bufAt = 0; // file offset of buf[0]
  let pos = 0;
  let lines = 0;
  while (pos < size) {
    // A line longer than the room left (rare: records are at most a few hundred KB) grows the buffer.
    if (buf.length - have < Math.min(CHUNK, size - pos)) {
      const bigger = Buffer.allocUnsafe(Math.max(2 * buf.length, have + Math.min(CHUNK, size - pos)));
      buf.copy(bigger, 0, 0, have);
      buf = bigger;
    }
    const n = readSync(fd, buf, have, Math.min(buf.length - have, size - pos), pos);
    if (n <= 0) break;
    pos += n;
    const filled = have + n;
    let start = 0;
    for (let nl = buf.indexOf(NL, have); nl >= 0 && nl < filled; nl = buf.indexOf(NL, start)) {
      lines += 1;
      const text = buf.toString('utf8', start, nl);
      start = nl + 1;
      if (text.trim() === '') continue;
      let raw;
      try {
        raw = JSON.parse(text);
      } catch {
        return null;
      }
      if (eventShapeProblem(raw) !== undefined) return null;
    }
    buf.copy(buf, 0, start, filled);
    have = filled - start;
    bufAt += start;
  }
  return { end: bufAt, lines };
}

/**
 * The strict read of the active file at `path`: its complete lines up to its size when every
 * non-blank one is an event, null when the file is missing or a record does not decode.
 * @param {string} path
 * @returns {{ ino: number, end: number, lines: number } | null}
 */
export function prescanFile(path) {
  let fd;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const { ino, size } = fstatSync(fd);
    const result = scan(fd, size);
    return result && { ino, ...result };
  } finally {
    closeSync(fd);
  }
}
