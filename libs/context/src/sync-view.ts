import type { OpResult } from '@cccc/ipc-protocol';
import type { SyncResult } from './store.js';

/** `context_sync` for the wire: the outcome of the batch, without the state and bookkeeping behind it. */
export function syncView(r: SyncResult): OpResult<'context_sync'> {
  return { success: r.success, dry_run: r.dry_run, changes: r.changes, version: r.version };
}
