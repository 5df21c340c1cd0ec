import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { requireOnFirstUse } from './require-on-first-use.js';
import { sleep } from './sleep.js';

// flock(2) through a native addon, loaded by the first lock taken: a process that imports this
// package only to write files (a `cccc` command) does not pay for loading it (~15 ms).
const fsExt = requireOnFirstUse<typeof import('fs-ext')>(import.meta.url, 'fs-ext');

/**
 * A flock(2) lock taken and released many times over one open file description. A hot path
 * (a group-commit writer locking once per batch) saves the open/close of `FileLock` on every
 * acquisition. Same kernel semantics: the lock dies with the process, never deadlocking the
 * next holder. Not re-entrant: lock() while held by this object fails.
 */
export class ReusableFileLock implements Disposable {
  private fd: number | undefined;
  private locked = false;

  constructor(readonly path: string) {}

  private handle(): number {
    if (this.fd === undefined) {
      mkdirSync(dirname(this.path), { recursive: true });
      this.fd = openSync(this.path, 'a', 0o600); // owner-only, as FileLock
    }
    return this.fd;
  }

  get held(): boolean {
    return this.locked;
  }

  /** Take the lock now, or return false when another open file description holds it. */
  tryLock(): boolean {
    if (this.locked) throw new Error(`ReusableFileLock ${this.path} is already held by this object`);
    try {
      fsExt().flockSync(this.handle(), 'exnb');
      this.locked = true;
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN' || code === 'EWOULDBLOCK') return false;
      throw err;
    }
  }

  /** Wait for the lock with a short polling backoff (a blocking flock would pin a libuv thread). */
  async lock(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (let delay = 1; ; delay = Math.min(delay * 2, 25)) {
      if (this.tryLock()) return;
      if (Date.now() >= deadline) {
        throw Object.assign(new Error(`timed out after ${timeoutMs} ms waiting for lock ${this.path}`), { code: 'ELOCKTIMEOUT' });
      }
      await sleep(delay);
    }
  }

  unlock(): void {
    if (!this.locked || this.fd === undefined) return;
    this.locked = false;
    fsExt().flockSync(this.fd, 'un');
  }

  close(): void {
    this.unlock();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  [Symbol.dispose](): void {
    this.close();
  }
}
