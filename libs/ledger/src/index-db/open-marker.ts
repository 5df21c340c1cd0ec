import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createFileDurablySync, fsyncDirSync } from '@cccc/durable-fs';

/**
 * Whether the SQLite index needs its integrity check at open. The index runs with
 * `synchronous = OFF` (it is rebuildable), so only a file that every connection closed cleanly
 * is known to be whole. Each open connection has a marker file `<index>.open-<pid>-<random>`,
 * made durable before the connection's first write and removed after its close; the last
 * connection to close syncs the index file and leaves `<index>.clean`, which the next open
 * removes. A check is skipped only when the clean stamp is there and no marker is: a kill -9,
 * a crash, a power loss or a connection still open in another process all mean a check.
 */
const cleanPath = (indexPath: string) => `${indexPath}.clean`;

function markerPaths(indexPath: string): Array<{ path: string; pid: number }> {
  const prefix = `${basename(indexPath)}.open-`;
  let names: string[];
  try {
    names = readdirSync(dirname(indexPath));
  } catch {
    return [];
  }
  return names.filter((n) => n.startsWith(prefix)).map((n) => ({ path: join(dirname(indexPath), n), pid: Number.parseInt(n.slice(prefix.length), 10) }));
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, another user's
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** The index file at `indexPath` was closed cleanly by every connection since it was last checked. */
export function cleanlyClosed(indexPath: string): boolean {
  return existsSync(cleanPath(indexPath)) && markerPaths(indexPath).length === 0;
}

export class OpenMarker {
  private constructor(
    private readonly indexPath: string,
    private readonly path: string,
  ) {}

  /** Mark a connection open: the marker is durable, then the clean stamp goes. */
  static create(indexPath: string): OpenMarker {
    const path = `${indexPath}.open-${process.pid}-${randomBytes(4).toString('hex')}`;
    createFileDurablySync(path, `${process.pid}\n`, 0o600);
    unlinkQuietly(cleanPath(indexPath));
    return new OpenMarker(indexPath, path);
  }

  /** After a check (or a new file): markers of processes that are gone say nothing more. */
  static forgetDead(indexPath: string): void {
    for (const m of markerPaths(indexPath)) if (!alive(m.pid)) unlinkQuietly(m.path);
  }

  /** After the connection closed: the last one out syncs the file and stamps it clean. */
  remove(): void {
    unlinkQuietly(this.path);
    if (markerPaths(this.indexPath).length > 0 || !existsSync(this.indexPath)) return;
    // synchronous = OFF: the pages SQLite wrote at its close may still be only in the page cache.
    for (const file of [this.indexPath, `${this.indexPath}-wal`]) {
      if (!existsSync(file)) continue;
      const fd = openSync(file, 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    if (!createFileDurablySync(cleanPath(this.indexPath), '')) fsyncDirSync(dirname(this.indexPath));
  }
}
