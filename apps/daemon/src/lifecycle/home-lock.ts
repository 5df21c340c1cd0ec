import { readFileSync } from 'node:fs';
import { FileLock } from '@cccc/durable-fs';
import { daemonPaths } from '@cccc/ipc-protocol/node';

/** Another daemon owns this home; nothing was changed. */
export class HomeLockedError extends Error {
  override name = 'HomeLockedError';
  constructor(
    readonly home: string,
    readonly ownerPid: number | undefined,
  ) {
    super(
      `another CCCC daemon${ownerPid ? ` (pid ${ownerPid})` : ''} already owns ${home}; ` +
        'use `cccc daemon status` / `cccc daemon stop`, or set CCCC_HOME to another directory',
    );
  }
}

/**
 * One daemon per home: an exclusive flock on `daemon/ccccd.lock`, held for the daemon's life and
 * dropped by the kernel if it dies, so a crashed daemon never blocks the next start.
 */
export function acquireHomeLock(home: string): FileLock {
  const paths = daemonPaths(home);
  const lock = FileLock.tryAcquire(paths.lock);
  if (lock) return lock;
  let ownerPid: number | undefined;
  try {
    ownerPid = Number(readFileSync(paths.pid, 'utf8').trim()) || undefined;
  } catch {
    ownerPid = undefined;
  }
  throw new HomeLockedError(home, ownerPid);
}
