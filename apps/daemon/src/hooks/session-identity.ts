import type { LaunchIdentity } from '@cccc/hook-fence';

/**
 * The launch identity (runtime, pid, launch token) a hooked PTY session was spawned with, held
 * in memory only: after a daemon restart no session has one, so hook state read from disk can
 * never be trusted for a process this daemon did not launch (working state fails closed).
 */
const identities = new WeakMap<object, LaunchIdentity>();

export function recordSessionIdentity(session: object, identity: LaunchIdentity): void {
  identities.set(session, identity);
}

/** The identity of a hooked session, or null for an unhooked one. */
export function sessionIdentity(session: object | undefined): LaunchIdentity | null {
  return (session && identities.get(session)) ?? null;
}
