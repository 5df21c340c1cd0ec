import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { MaintenanceThread } from './maintenance-thread.js';

/**
 * Gzip a sealed segment into `target`, whole and synced on disk when this resolves. The deflate
 * runs on the maintenance thread at the lowest CPU priority (segment-gzip-file.js); where no
 * thread can start, it streams through zlib here (on libuv's thread pool) instead.
 */
export async function gzipSegmentFile(source: string, target: string): Promise<void> {
  let thread: MaintenanceThread | undefined;
  try {
    thread = MaintenanceThread.shared();
    await thread.run({ kind: 'gzip', source, target });
  } catch (err) {
    if (thread?.online) throw new Error(`gzip of ${source} failed: ${(err as Error).message}`);
    await gzipOnPool(source, target);
  }
}

/** The maintenance thread's gzip (exported for tests). */
export async function gzipOnWorker(source: string, target: string): Promise<void> {
  await MaintenanceThread.shared().run({ kind: 'gzip', source, target });
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
