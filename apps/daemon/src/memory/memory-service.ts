import { GroupMemory } from '@cccc/memory';
import type { HomeLayout } from '@cccc/groups';
import type { GroupDocCache } from '../kernel/group-cache.js';

export interface MemoryDeps {
  readonly layout: HomeLayout;
  readonly groups: Pick<GroupDocCache, 'get'>;
}

/**
 * One `GroupMemory` per group (its index stays open), created on first use once the group is
 * known to exist (`group_not_found` otherwise). The label follows the group's current title.
 */
export class MemoryService implements Disposable {
  private readonly open = new Map<string, GroupMemory>();

  constructor(private readonly deps: MemoryDeps) {}

  of(groupId: string): GroupMemory {
    this.deps.groups.get(groupId);
    let memory = this.open.get(groupId);
    if (!memory) {
      memory = new GroupMemory({ groupDir: this.deps.layout.groupDir(groupId), title: () => this.deps.groups.get(groupId).title });
      this.open.set(groupId, memory);
    }
    return memory;
  }

  /** Throws `group_not_found` for an unknown group (ops that touch no file still name a group). */
  check(groupId: string): void {
    this.deps.groups.get(groupId);
  }

  [Symbol.dispose](): void {
    for (const m of this.open.values()) m.close();
    this.open.clear();
  }
}
