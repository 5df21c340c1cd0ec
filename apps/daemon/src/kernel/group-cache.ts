import { statSync } from 'node:fs';
import { loadGroup, type GroupDoc, type HomeLayout } from '@cccc/groups';

interface Entry {
  readonly mtimeMs: number;
  readonly size: number;
  readonly doc: GroupDoc;
}

/**
 * group.yaml parsed once per change: hot paths (role lookups inside ledger projections, send
 * routing) read the cached document, revalidated by one stat per read.
 */
export class GroupDocCache {
  private readonly entries = new Map<string, Entry>();
  /** How often group.yaml was read and parsed (tests assert hot paths do not). */
  readonly stats = { loads: 0 };

  constructor(private readonly layout: HomeLayout) {}

  /** The current document; throws `group_not_found` like `loadGroup`. */
  get(groupId: string): GroupDoc {
    const path = this.layout.groupYamlPath(groupId);
    let st;
    try {
      st = statSync(path);
    } catch {
      this.entries.delete(groupId);
      this.stats.loads += 1;
      return loadGroup(this.layout, groupId);
    }
    const hit = this.entries.get(groupId);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.doc;
    this.stats.loads += 1;
    const doc = loadGroup(this.layout, groupId);
    this.entries.set(groupId, { mtimeMs: st.mtimeMs, size: st.size, doc });
    return doc;
  }

  /** Forget a group after a write whose mtime might not have moved (coarse clocks). */
  invalidate(groupId: string): void {
    this.entries.delete(groupId);
  }
}
