import type { ActivityEntry } from '@cccc/hook-fence';
import type { ActivitySession } from './activity-session.js';
import { GroupSubscribers } from './group-subscribers.js';

/**
 * Fan-out of runtime activity: the daemon is the single writer of each group's activity store,
 * so the commit path publishes every revision it wrote here (under the group's activity lock),
 * and each subscriber diffs it against its own view.
 */
export class ActivityHub {
  private readonly sessions = new GroupSubscribers<ActivitySession>();

  add(groupId: string, session: ActivitySession): () => void {
    return this.sessions.add(groupId, session);
  }

  publish(groupId: string, entries: readonly ActivityEntry[]): void {
    for (const session of this.sessions.of(groupId)) session.update(entries);
  }

  subscriberCount(groupId: string): number {
    return this.sessions.count(groupId);
  }

  closeAll(): void {
    this.sessions.closeAll();
  }
}
