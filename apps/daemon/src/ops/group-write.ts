import type { AppendInput, LedgerEvent } from '@cccc/ledger';
import type { Kernel } from '../kernel/kernel.js';

/**
 * One group's read-modify-append, serialized on the group's lock: `change` writes the files
 * (and throws, writing nothing, on rejection), then its event is appended through the kernel
 * so streams hear it. The cached group.yaml is dropped after every attempt.
 */
export async function writeGroup<T>(
  kernel: Kernel,
  groupId: string,
  change: () => Promise<T> | T,
  eventOf: (outcome: T) => AppendInput,
): Promise<{ outcome: T; event: LedgerEvent }> {
  return kernel.groupLocks.run(groupId, async () => {
    let outcome: T;
    try {
      outcome = await change();
    } finally {
      kernel.groups.invalidate(groupId);
    }
    const { event } = await kernel.append(groupId, eventOf(outcome));
    return { outcome, event };
  });
}

/** A file change with no ledger event (prompts, secrets), still ordered with the group's other writes. */
export function changeGroupFiles<T>(kernel: Kernel, groupId: string, change: () => Promise<T> | T): Promise<T> {
  return kernel.groupLocks.run(groupId, async () => {
    try {
      return await change();
    } finally {
      kernel.groups.invalidate(groupId);
    }
  });
}
