import { GroupSubscribers } from './group-subscribers.js';
import type { StreamSession } from './stream-session.js';

/**
 * Fan-out point: the daemon is the single writer, so it knows when a group's ledger grew and
 * tells every subscriber of that group to pull. `'*'` subscribers hear every group.
 */
export class StreamHub {
  private readonly sessions = new GroupSubscribers<StreamSession>();

  add(groupId: string, session: StreamSession): () => void {
    return this.sessions.add(groupId, session);
  }

  notify(groupId: string): void {
    for (const key of [groupId, '*']) for (const session of this.sessions.of(key)) session.pump();
  }

  get subscriberCount(): number {
    return this.sessions.count();
  }

  closeAll(): void {
    this.sessions.closeAll();
  }
}
