import type { AppendInput, LedgerEvent } from '@cccc/ledger';
import type { StoreDeps } from '../kernel/store-deps.js';

export type GroupWriteDeps = Pick<StoreDeps, 'groups' | 'ledgers' | 'groupLocks'>;

/**
 * One group's read-modify-append, serialized on the group's lock: `change` writes the files
 * (and throws, writing nothing, on rejection), then its event is appended (the ledger pool fans it out
 * to streams). The cached group.yaml is dropped after every attempt.
 */
export async function writeGroup<T>(
  deps: GroupWriteDeps,
  groupId: string,
  change: () => Promise<T> | T,
  eventOf: (outcome: T) => AppendInput,
): Promise<{ outcome: T; event: LedgerEvent }> {
  return deps.groupLocks.run(groupId, async () => {
    let outcome: T;
    try {
      outcome = await change();
    } finally {
      deps.groups.invalidate(groupId);
    }
    const { event } = await deps.ledgers.append(groupId, eventOf(outcome));
    return { outcome, event };
  });
}

/** A file change with no ledger event (prompts, secrets), still ordered with the group's other writes. */
export function changeGroupFiles<T>(deps: GroupWriteDeps, groupId: string, change: () => Promise<T> | T): Promise<T> {
  return deps.groupLocks.run(groupId, async () => {
    try {
      return await change();
    } finally {
      deps.groups.invalidate(groupId);
    }
  });
}
