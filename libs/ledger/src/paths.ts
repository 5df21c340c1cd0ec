import { join } from 'node:path';

/** Every on-disk location of one group's ledger, relative to the reference layout. */
export interface LedgerPaths {
  groupDir: string;
  active: string;
  stateDir: string;
  ledgerDir: string;
  lock: string;
  maintenanceLock: string;
  segmentsDir: string;
  manifest: string;
  blobsDir: string;
  index: string;
  snapshotLatest: string;
  cursors: string;
  cursorsPending: string;
  inboxLock: string;
}

export function ledgerPaths(home: string, groupId: string): LedgerPaths {
  const groupDir = join(home, 'groups', groupId);
  const stateDir = join(groupDir, 'state');
  const ledgerDir = join(stateDir, 'ledger');
  return {
    groupDir,
    active: join(groupDir, 'ledger.jsonl'),
    stateDir,
    ledgerDir,
    lock: join(ledgerDir, 'ledger.lock'),
    // Our own lock: held by whatever moves segment files or writes the manifest (rotation, the
    // gzip swap) and by readers of the whole file set (open, snapshot); appends never take it.
    maintenanceLock: join(ledgerDir, 'ts-maintenance.lock'),
    segmentsDir: join(ledgerDir, 'segments'),
    manifest: join(ledgerDir, 'manifest.json'),
    blobsDir: join(ledgerDir, 'blobs'),
    // Our own derived index; the reference's index.sqlite3 / status.sqlite3 are never touched.
    index: join(ledgerDir, 'ts-index.sqlite3'),
    // Our own file: the reference's snapshot.latest.json holds a different (state) payload.
    snapshotLatest: join(ledgerDir, 'ts-snapshot.latest.json'),
    cursors: join(stateDir, 'read_cursors.json'),
    cursorsPending: join(stateDir, 'read_cursors.pending.json'),
    inboxLock: join(ledgerDir, 'inbox.lock'),
  };
}
