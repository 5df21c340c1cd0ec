import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import { createGzip } from 'node:zlib';

/**
 * Gzip a sealed segment into `target`, whole and synced on disk when this resolves. The deflate
 * runs on a short-lived worker thread at the lowest CPU priority (segment-gzip-worker.js); where
 * no worker can start, it streams through zlib here (on libuv's thread pool) instead.
 */
export async function gzipSegmentFile(source: string, target: string): Promise<void> {
  let started = false;
  try {
    await gzipOnWorker(source, target, () => (started = true));
  } catch (err) {
    if (started) throw err;
    await gzipOnPool(source, target);
  }
}

/** The worker's gzip (exported for tests). `onStarted` marks that the worker ran at all. */
export function gzipOnWorker(source: string, target: string, onStarted: () => void = () => undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./segment-gzip-worker.js', import.meta.url), { workerData: { source, target } });
    let settled = false;
    worker.once('online', onStarted);
    worker.once('message', (reply: { bytes?: number; error?: string }) => {
      settled = true;
      if (reply.error !== undefined) reject(new Error(`gzip of ${source} failed: ${reply.error}`));
      else resolve();
    });
    worker.once('error', (err) => {
      if (!settled) reject(err);
      settled = true;
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`gzip worker exited with code ${code}`));
      settled = true;
    });
  });
}

async function gzipOnPool(source: string, target: string): Promise<void> {
  await pipeline(createReadStream(source), createGzip(), createWriteStream(target, { mode: 0o644 }));
  const handle = await open(target, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
