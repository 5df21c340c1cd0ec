import { FileLock } from '@cccc/durable-fs';
import { mkdirSync } from 'node:fs';
import { FileLedgerStore } from './file-store.js';
import { LedgerIndex } from './index-db/ledger-index.js';
import { catchUpActive, rebuildIndex, staleReason } from './index-db/sync.js';
import { ledgerPaths } from './paths.js';
import { LedgerFiles } from './storage/ledger-files.js';
import type { OpenLedgerOptions } from './ledger-options.js';

export type { OpenLedgerOptions } from './ledger-options.js';

/** Open a group's ledger: catch up or rebuild the index, recover a pending consume. */
export async function openGroupLedger(opts: OpenLedgerOptions): Promise<FileLedgerStore> {
  const paths = ledgerPaths(opts.home, opts.groupId);
  mkdirSync(paths.ledgerDir, { recursive: true });
  const files = new LedgerFiles(paths);
  const { index, reset } = LedgerIndex.open(paths.index);
  let rebuilt: string | null = null;
  try {
    // Under the maintenance lock (no rotation or gzip swap moves files) and the writer lock (no
    // append is half done) while we reconcile the index.
    const maintenance = await FileLock.acquire(paths.maintenanceLock, opts.lockTimeoutMs ?? 30_000);
    try {
      const lock = await FileLock.acquire(paths.lock, opts.lockTimeoutMs ?? 30_000);
      try {
        const reason = reset ?? staleReason(index, files);
        if (reason) {
          rebuildIndex(index, files);
          rebuilt = reason;
        } else {
          catchUpActive(index, files);
        }
      } finally {
        lock.release();
      }
    } finally {
      maintenance.release();
    }
  } catch (err) {
    index.close();
    files.close();
    throw err;
  }
  const store = new FileLedgerStore(paths, files, index, opts, rebuilt);
  await store.recoverAtOpen();
  if (opts.settleStrandedDeliveries) await store.settleStrandedClaims();
  return store;
}

