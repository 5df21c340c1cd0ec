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
 * @param {number} fd
 * @param {number} size
 * @returns {{ end: number, lines: number } | null}
 */
function scan(fd, size) {
  let carry = Buffer.alloc(0);
  let carryOff = 0;
  let pos = 0;
  let lines = 0;
  while (pos < size) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK, size - pos));
    const n = readSync(fd, chunk, 0, chunk.length, pos);
    if (n <= 0) break;
    pos += n;
    const buf = carry.length ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
    let start = 0;
    for (let nl = buf.indexOf(NL); nl >= 0; nl = buf.indexOf(NL, start)) {
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
    carry = Buffer.from(buf.subarray(start));
    carryOff += start;
  }
  return { end: carryOff, lines };
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
