/** What a registry can end when the daemon stops. */
export interface EndableSession {
  end(reason: string): void;
}

/**
 * Stream sessions by group id: the bookkeeping shared by the ledger and the runtime-activity
 * fan-outs. A group's set disappears with its last session.
 */
const NONE: readonly never[] = Object.freeze([]);

export class GroupSubscribers<S extends EndableSession> {
  private readonly byGroup = new Map<string, Set<S>>();

  /** Register `session` under `groupId`; the returned function removes it again. */
  add(groupId: string, session: S): () => void {
    let set = this.byGroup.get(groupId);
    if (!set) this.byGroup.set(groupId, (set = new Set()));
    set.add(session);
    return () => {
      set.delete(session);
      if (set.size === 0 && this.byGroup.get(groupId) === set) this.byGroup.delete(groupId);
    };
  }

  /** A snapshot of the group's sessions: a session may remove itself while being called. */
  of(groupId: string): readonly S[] {
    const set = this.byGroup.get(groupId);
    return set ? [...set] : NONE;
  }

  /** Sessions of one group, or of all groups. */
  count(groupId?: string): number {
    if (groupId !== undefined) return this.byGroup.get(groupId)?.size ?? 0;
    let n = 0;
    for (const set of this.byGroup.values()) n += set.size;
    return n;
  }

  closeAll(): void {
    for (const set of this.byGroup.values()) for (const s of [...set]) s.end('daemon stopping');
    this.byGroup.clear();
  }
}
