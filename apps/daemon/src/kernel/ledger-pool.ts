import { effectiveRole, type HomeLayout } from '@cccc/groups';
import { openGroupLedger, type AppendedListener, type AppendInput, type AppendResult, type FileLedgerStore } from '@cccc/ledger';
import type { GroupDocCache } from './group-cache.js';

/** `ledger.max_active_bytes` of group.yaml when it is a positive integer; else the default. */
export function maxActiveBytesOf(groups: GroupDocCache, groupId: string): number | undefined {
  try {
    const ledger = (groups.get(groupId) as { ledger?: unknown }).ledger;
    const v = ledger && typeof ledger === 'object' ? (ledger as Record<string, unknown>)['max_active_bytes'] : undefined;
    return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Open ledgers of this daemon, one per group, opened on first use. The daemon is the single
 * writer, so it opens each ledger once and settles claims stranded by a previous process.
 * Every event any writer appends to any of them reaches `onAppended` (the stream fan-out) from
 * the store itself: publishing follows appending.
 */
export class LedgerPool implements AsyncDisposable {
  private readonly open = new Map<string, Promise<FileLedgerStore>>();

  constructor(
    private readonly layout: HomeLayout,
    private readonly groups: GroupDocCache,
    private readonly onAppended: AppendedListener,
  ) {}

  async append<K extends string>(groupId: string, input: AppendInput<K>): Promise<AppendResult<K>> {
    return (await this.get(groupId)).append(input);
  }

  get(groupId: string): Promise<FileLedgerStore> {
    const existing = this.open.get(groupId);
    if (existing) return existing;
    {
      const store = openGroupLedger({
        home: this.layout.home,
        groupId,
        settleStrandedDeliveries: true,
        onAppended: this.onAppended,
        // Reference rotation rule: group.yaml ledger.max_active_bytes (default 5,000,000), at
        // most every 300 s; read per decision so an edited group.yaml applies at once.
        autoCompact: true,
        maxActiveBytes: () => maxActiveBytesOf(this.groups, groupId),
        roleOf: (actorId: string) => {
          try {
            return effectiveRole(this.groups.get(groupId).actors, actorId);
          } catch {
            return undefined;
          }
        },
      });
      store.catch(() => this.open.delete(groupId));
      this.open.set(groupId, store);
      return store;
    }
  }

  /** The group's ledger if this daemon has it open; never opens one. */
  opened(groupId: string): Promise<FileLedgerStore> | undefined {
    return this.open.get(groupId);
  }

  /** Close one group's ledger (before deleting the group). */
  async release(groupId: string): Promise<void> {
    const store = this.open.get(groupId);
    this.open.delete(groupId);
    if (store) await (await store).close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.allSettled(all.map(async (s) => (await s).close()));
  }
}
