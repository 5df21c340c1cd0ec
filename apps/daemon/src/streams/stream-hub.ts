import type { StreamSession } from './stream-session.js';

/**
 * Fan-out point: the daemon is the single writer, so it knows when a group's ledger grew and
 * tells every subscriber of that group to pull. `'*'` subscribers hear every group.
 */
export class StreamHub {
  private readonly byGroup = new Map<string, Set<StreamSession>>();

  add(groupId: string, session: StreamSession): () => void {
    let set = this.byGroup.get(groupId);
    if (!set) this.byGroup.set(groupId, (set = new Set()));
    set.add(session);
    return () => {
      set!.delete(session);
      if (set!.size === 0 && this.byGroup.get(groupId) === set) this.byGroup.delete(groupId);
    };
  }

  notify(groupId: string): void {
    for (const key of [groupId, '*']) {
      const set = this.byGroup.get(key);
      if (!set) continue;
      for (const session of [...set]) session.pump();
    }
  }

  get subscriberCount(): number {
    let n = 0;
    for (const set of this.byGroup.values()) n += set.size;
    return n;
  }

  closeAll(): void {
    for (const set of this.byGroup.values()) for (const s of [...set]) s.end('daemon stopping');
    this.byGroup.clear();
  }
}
