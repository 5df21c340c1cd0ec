import type { ActivityEntry } from '@cccc/hook-fence';
import type { ActivitySession } from './activity-session.js';

/**
 * Fan-out of runtime activity: the daemon is the single writer of each group's activity store,
 * so the commit path publishes every revision it wrote here (under the group's activity lock),
 * and each subscriber diffs it against its own view.
 */
export class ActivityHub {
  private readonly byGroup = new Map<string, Set<ActivitySession>>();

  add(groupId: string, session: ActivitySession): () => void {
    let set = this.byGroup.get(groupId);
    if (!set) this.byGroup.set(groupId, (set = new Set()));
    set.add(session);
    return () => {
      set!.delete(session);
      if (set!.size === 0 && this.byGroup.get(groupId) === set) this.byGroup.delete(groupId);
    };
  }

  publish(groupId: string, entries: readonly ActivityEntry[]): void {
    const set = this.byGroup.get(groupId);
    if (!set) return;
    for (const session of [...set]) session.update(entries);
  }

  subscriberCount(groupId: string): number {
    return this.byGroup.get(groupId)?.size ?? 0;
  }

  closeAll(): void {
    for (const set of this.byGroup.values()) for (const s of [...set]) s.end('daemon stopping');
    this.byGroup.clear();
  }
}
