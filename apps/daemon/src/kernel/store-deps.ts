import type { HomeLayout } from '@cccc/groups';
import type { KeyedMutex } from '../concurrency/keyed-mutex.js';
import type { GroupDocCache } from './group-cache.js';
import type { LedgerPool } from './ledger-pool.js';

/**
 * The durable group state most op handlers touch: the home's layout, cached group documents,
 * the open ledgers (whose appends fan out by themselves), and the per-group write locks.
 * Handlers and services name the part they use (`Pick<StoreDeps, ...>`) plus their own services.
 */
export interface StoreDeps {
  readonly layout: HomeLayout;
  readonly groups: GroupDocCache;
  readonly ledgers: LedgerPool;
  readonly groupLocks: KeyedMutex;
}
