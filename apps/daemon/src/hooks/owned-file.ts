import { readFile, rm, stat } from 'node:fs/promises';
import { writeFileAtomic } from '@cccc/durable-fs';

/** How one file's content is held in memory (`R`, what a read yields: `null` text is a missing file) and written (`W`). */
export interface FileCodec<R, W extends R = R> {
  decode(text: string | null): R;
  encode(value: W): string;
  readonly mode?: number;
}

const ABSENT = 'absent';

/**
 * Which version of a file is on disk, learned without reading it. Every atomic write is a new
 * inode, and an in-place rewrite by another process moves size, mtime or ctime.
 */
async function stampOf(path: string): Promise<string> {
  try {
    const s = await stat(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ABSENT;
    throw error;
  }
}

/**
 * One file this process owns: its value lives in memory and every change is written through
 * (atomically), so the file stays the durable, cross-process record. The file is read once, on
 * first use, and again only when its stamp shows that someone else replaced, rewrote or removed
 * it (an operator, a test, another implementation sharing the home): never to learn back what
 * this process wrote. While a write of ours is in flight, readers see the last committed value.
 * Writers are serialized by the caller's lock.
 */
export class OwnedFile<T, W extends T = T> {
  private committed: { value: T; stamp: string } | undefined;
  private writes = 0;
  /** Bumped by every write, so a read that raced one does not cache what it saw. */
  private generation = 0;

  constructor(
    readonly path: string,
    private readonly codec: FileCodec<T, W>,
  ) {}

  async get(): Promise<T> {
    if (this.committed && this.writes > 0) return this.committed.value;
    const generation = this.generation;
    const stamp = await stampOf(this.path);
    if (this.generation !== generation && this.committed) return this.committed.value;
    if (this.committed?.stamp === stamp) return this.committed.value;
    const value = this.codec.decode(stamp === ABSENT ? null : await readText(this.path));
    // Stamped before reading: a change that lands during the read is seen at the next get.
    if (this.generation === generation) this.committed = { value, stamp };
    return this.generation === generation || !this.committed ? value : this.committed.value;
  }

  /** Write `value` through; memory follows once the file is committed. */
  set(value: W): Promise<void> {
    return this.change(value, async () => {
      await writeFileAtomic(this.path, this.codec.encode(value), this.codec.mode);
      return stampOf(this.path);
    });
  }

  remove(): Promise<void> {
    return this.change(this.codec.decode(null), async () => {
      await rm(this.path, { force: true });
      return ABSENT;
    });
  }

  private async change(value: T, commit: () => Promise<string>): Promise<void> {
    this.writes++;
    this.generation++;
    try {
      this.committed = { value, stamp: await commit() };
    } catch (error) {
      // What reached the disk is unknown: the file is the truth again, read at the next get.
      this.committed = undefined;
      throw error;
    } finally {
      this.writes--;
    }
  }
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
