import { spawnNodePty } from './node-pty-session.js';
import type { PtyExit, PtySession, PtySpawner } from './pty-session.js';

/**
 * The one place that picks the PTY implementation for production. node-pty covers every
 * platform the daemon runs on; tests pass the fake spawner from `./testing` instead.
 */
export function defaultPtySpawner(): PtySpawner {
  return spawnNodePty;
}

export interface StopOptions {
  /** Time between SIGTERM and SIGKILL. */
  readonly graceMs?: number;
}

/**
 * Stops a session the way the lifecycle rules ask: SIGTERM to the process group, SIGKILL after
 * a grace period. Resolves with the exit once the process is gone.
 */
export function stopPtySession(session: PtySession, options: StopOptions = {}): Promise<PtyExit> {
  const graceMs = options.graceMs ?? 3000;
  return new Promise<PtyExit>((resolve) => {
    if (session.exited) return resolve({ exitCode: null, signal: null });
    let timer: NodeJS.Timeout | undefined;
    const sub = session.onExit((exit) => {
      if (timer) clearTimeout(timer);
      // Helpers that ignored SIGTERM may outlive the leader in its process group: end them now,
      // while the group id cannot have been reused yet.
      try {
        process.kill(-session.pid, 'SIGKILL');
      } catch {
        /* group already empty */
      }
      sub[Symbol.dispose]();
      resolve(exit);
    });
    session.kill('SIGTERM');
    timer = setTimeout(() => session.kill('SIGKILL'), graceMs);
    timer.unref?.();
  });
}
