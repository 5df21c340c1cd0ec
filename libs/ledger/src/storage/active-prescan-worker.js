// @ts-check
// A rotation's strict pre-read of the active file, on a short-lived worker thread at the lowest
// CPU priority: decoding a few megabytes of JSON lines costs tens of milliseconds of CPU and
// garbage, which on the daemon's thread would delay every request served meanwhile, and which
// on a busy machine should take only the CPU those requests leave (issue 20, point 6). Plain
// JavaScript because the library's tests run its TypeScript sources directly and Node 20 cannot
// load TypeScript in a worker thread; it is bundled (with event-shape.js) into dist.
//
// workerData: { path }. Posts { scan: { ino, end, lines } } for the complete lines up to the
// file's size when every non-blank one is an event, { scan: null } when the file is missing or a
// record does not decode (the locked pass then reads it all and reports the damage), or
// { error } when reading failed.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { eventShapeProblem } from './event-shape.js';

try {
  // Maintenance: on Linux the nice value is per thread, so this lowers this worker's alone.
  setPriority(19);
} catch {
  // not permitted here: the work still runs off the serving thread
}

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

/** @param {string} path */
function prescan(path) {
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

try {
  parentPort?.postMessage({ scan: prescan(String(workerData.path)) });
} catch (err) {
  parentPort?.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
