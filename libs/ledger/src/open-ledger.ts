import { FileLock } from '@cccc/durable-fs';
import { mkdirSync } from 'node:fs';
import { FileLedgerStore } from './file-store.js';
import { LedgerIndex } from './index-db/ledger-index.js';
import { catchUpActive, rebuildIndex, staleReason } from './index-db/sync.js';
import type { ConsumePhase } from './mail/consume.js';
import { ledgerPaths } from './paths.js';
import { LedgerFiles } from './storage/ledger-files.js';
import type { Clock, RoleOf } from './types.js';

export interface OpenLedgerOptions {
  home: string;
  groupId: string;
  clock?: Clock;
  /** Current role of an actor (libs/groups owns roles); unknown actors count as peers. */
  roleOf?: RoleOf;
  /**
   * Run the daemon-start step that settles every leftover `claimed` to `ambiguous`. Off by
   * default: a second opener (a CLI reading the ledger) must not settle a live daemon's claims.
   */
  settleStrandedDeliveries?: boolean;
  lockTimeoutMs?: number;
  clientIdWindowMs?: number;
  /** Rows fetched per step when history filters by text (default 256). */
  historyQueryPage?: number;
  /**
   * Rotate the active file automatically once it reaches `maxActiveBytes` (reference rule:
   * group.yaml `ledger.max_active_bytes`, default 5,000,000), at most once per
   * `compactMinIntervalMs` (300 s). Runs after the appends that crossed the threshold were
   * acknowledged, never on their path. Off by default: the daemon, the single writer, opts in.
   */
  autoCompact?: boolean;
  /** The rotation threshold, asked at each decision so an edited group.yaml applies at once. */
  maxActiveBytes?: () => number | undefined;
  /** Minimum time between non-forced rotations (manual or automatic); default 300 s. */
  compactMinIntervalMs?: number;
  /**
   * Acknowledged events that, once waiting, go to the background index writer at once (default
   * 2048; a timer hands over fewer). Tests set 1 to drive the writer thread batch by batch.
   */
  backgroundIndexAt?: number;
  /** Test seam: called after each durable step of a consuming Inbox read. */
  onConsumePhase?: (phase: ConsumePhase) => void;
}

/** Open a group's ledger: catch up or rebuild the index, recover a pending consume. */
export async function openGroupLedger(opts: OpenLedgerOptions): Promise<FileLedgerStore> {
  const paths = ledgerPaths(opts.home, opts.groupId);
  mkdirSync(paths.ledgerDir, { recursive: true });
  const files = new LedgerFiles(paths);
  const { index, reset } = LedgerIndex.open(paths.index);
  let rebuilt: string | null = null;
  try {
    // Under the writer lock so no compaction moves files while we reconcile the index.
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
  } catch (err) {
    index.close();
    files.close();
    throw err;
  }
  const store = new FileLedgerStore(paths, files, index, opts, rebuilt);
  store.recoverAtOpen();
  if (opts.settleStrandedDeliveries) await store.settleStrandedClaims();
  return store;
}

