import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { FileLock } from '@cccc/durable-fs';

/** Where the lock for one bot token lives: a hash of the token, never the token itself. */
export function tokenLockPath(home: string, platform: string, token: string): string {
  const digest = createHash('sha256').update(`${platform}\0${token}`).digest('hex').slice(0, 32);
  return join(home, 'state', 'im', 'token-locks', `${digest}.lock`);
}

/**
 * Two bridges must never poll one bot token at once (Telegram would answer 409 and drop
 * updates between them): a bridge holds this kernel lock for as long as it receives. It waits
 * while another bridge (another group with the same token) holds it.
 */
export async function acquireTokenLock(
  home: string,
  platform: string,
  token: string,
  signal: AbortSignal,
  onWait?: () => void,
): Promise<FileLock | undefined> {
  const path = tokenLockPath(home, platform, token);
  let told = false;
  while (!signal.aborted) {
    const lock = FileLock.tryAcquire(path);
    if (lock) return lock;
    if (!told) onWait?.();
    told = true;
    await sleep(250, undefined, { signal }).catch(() => undefined);
  }
  return undefined;
}
