import { statSync } from 'node:fs';
import { loadGroup, type GroupDoc, type HomeLayout } from '@cccc/groups';

interface Entry {
  /** group.yaml's path, joined once: a send reads the cache on its request path. */
  readonly path: string;
  /** The daemon replaces group.yaml by rename, so every write it makes gives a new inode. */
  readonly ino: number;
  readonly mtimeMs: number;
  readonly size: number;
  readonly doc: GroupDoc;
}

/**
 * group.yaml parsed once per change: hot paths (role lookups inside ledger projections, send
 * routing) and the read ops (`group_show`, `actor_list`, `groups`) read the cached document,
 * revalidated by one stat per read (inode, mtime and size) so an out-of-band edit is seen by the
 * very next read. The document is shared: readers copy what they change.
 */
export class GroupDocCache {
  private readonly entries = new Map<string, Entry>();
  /** How often group.yaml was read and parsed (tests assert hot paths do not). */
  readonly stats = { loads: 0 };

  constructor(private readonly layout: HomeLayout) {}

  /** The current document; throws `group_not_found` like `loadGroup`. */
  get(groupId: string): GroupDoc {
    const hit = this.entries.get(groupId);
    // Only groups that existed are entries, so unknown ids never grow the map.
    const path = hit ? hit.path : this.layout.groupYamlPath(groupId);
    let st;
    try {
      st = statSync(path, { throwIfNoEntry: false }); // no exception built for a missing group
    } catch {
      st = undefined;
    }
    if (!st) {
      this.entries.delete(groupId);
      this.stats.loads += 1;
      return loadGroup(this.layout, groupId);
    }
    if (hit && hit.ino === st.ino && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.doc;
    this.stats.loads += 1;
    const doc = loadGroup(this.layout, groupId);
    this.entries.set(groupId, { path, ino: st.ino, mtimeMs: st.mtimeMs, size: st.size, doc });
    return doc;
  }

  /** Forget a group after a write whose mtime might not have moved (coarse clocks). */
  invalidate(groupId: string): void {
    this.entries.delete(groupId);
  }
}
