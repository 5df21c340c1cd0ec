// @ts-check
// The maintenance thread (maintenance-thread.ts): a rotation's strict pre-read of the active file
// and the gzip of sealed segments, one job at a time, at the lowest CPU priority. It stays up
// between jobs, so a rotation does not pay a thread's start-up (tens of milliseconds of CPU at
// normal priority, before any nice value can apply) for each of its steps. Plain JavaScript for
// the same reason as index-writer-worker.js; bundled into dist with the two job modules.
//
// Messages: { id, kind: 'prescan', path } answered { id, result: { ino, end, lines } | null };
// { id, kind: 'gzip', source, target } answered { id, result: bytes written }; any failure is
// answered { id, error }.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { prescanFile } from './active-prescan-scan.js';
import { gzipFile } from './segment-gzip-file.js';

try {
  // On Linux the nice value is per thread: this lowers this worker's, not the process's.
  setPriority(19);
} catch {
  // not permitted here: the work still runs off the serving thread
}

/** @param {{ kind?: unknown, path?: unknown, source?: unknown, target?: unknown }} job */
function run(job) {
  if (job.kind === 'prescan') return prescanFile(String(job.path));
  if (job.kind === 'gzip') return gzipFile(String(job.source), String(job.target));
  throw new Error(`unknown maintenance job ${String(job.kind)}`);
}

parentPort?.on('message', (/** @type {{ id: number }} */ job) => {
  try {
    parentPort?.postMessage({ id: job.id, result: run(job) });
  } catch (err) {
    parentPort?.postMessage({ id: job.id, error: err instanceof Error ? err.message : String(err) });
  }
});
