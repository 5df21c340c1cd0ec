import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { requireOnFirstUse } from './require-on-first-use.js';
import { sleep } from './sleep.js';

// flock(2) through a native addon, loaded by the first lock taken: a process that imports this
// package only to write files (a `cccc` command) does not pay for loading it (~15 ms).
const fsExt = requireOnFirstUse<typeof import('fs-ext')>(import.meta.url, 'fs-ext');

/**
 * An exclusive kernel lock (flock) on a file. The kernel drops it when the holder dies, so a
 * crashed holder can never deadlock the next one. We poll the non-blocking form instead of
 * blocking a libuv worker thread, which the rest of the process needs for its file IO.
 */
export class FileLock implements Disposable {
  private constructor(
    readonly path: string,
    private fd: number | undefined,
  ) {}

  /** Take the lock now or return undefined when another open file description holds it. */
  static tryAcquire(path: string): FileLock | undefined {
    mkdirSync(dirname(path), { recursive: true });
    // Owner-only like every file in a home; a lock under state/secrets must not look like a loose secret.
    const fd = openSync(path, 'a', 0o600);
    try {
      fsExt().flockSync(fd, 'exnb');
      return new FileLock(path, fd);
    } catch (err) {
      closeSync(fd);
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN' || code === 'EWOULDBLOCK') return undefined;
      throw err;
    }
  }

  /** Wait for the lock, polling with a short backoff, up to `timeoutMs`. */
  static async acquire(path: string, timeoutMs = 30_000): Promise<FileLock> {
    const deadline = Date.now() + timeoutMs;
    for (let delay = 1; ; delay = Math.min(delay * 2, 25)) {
      const lock = FileLock.tryAcquire(path);
      if (lock) return lock;
      if (Date.now() >= deadline) {
        throw Object.assign(new Error(`timed out after ${timeoutMs} ms waiting for lock ${path}`), {
          code: 'ELOCKTIMEOUT',
        });
      }
      await sleep(delay);
    }
  }

  get held(): boolean {
    return this.fd !== undefined;
  }

  release(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    try {
      fsExt().flockSync(fd, 'un');
    } finally {
      closeSync(fd);
    }
  }

  [Symbol.dispose](): void {
    this.release();
  }
}
