import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FileLock, writeFileAtomic } from '@cccc/durable-fs';
import {
  AuthorizedEntry,
  PendingEntry,
  SubscriberEntry,
  parseEntries,
  type ImAuthorityState,
} from './state.js';

export const IM_STATE_FILES = {
  pending: 'im_pending_keys.json',
  authorized: 'im_authorized_chats.json',
  subscribers: 'im_subscribers.json',
} as const;
export const IM_STATE_LOCK = 'im_state.lock';

/**
 * A random, URL-safe one-time key (64 bits, like the reference's token_urlsafe(8)) that does not
 * start with `-`: a person types it as a command-line argument (`cccc im bind <key>`), where a
 * leading dash reads as an option, and one key in 64 had one.
 */
export function mintKey(): string {
  for (;;) {
    const key = randomBytes(8).toString('base64url');
    if (!key.startsWith('-')) return key;
  }
}

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    // A missing file is an empty class; a torn or hand-broken one must not wedge the bridge.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || err instanceof SyntaxError) return {};
    throw err;
  }
}

/**
 * The IO shell of the group-local IM authority (§8.16): every read that can lead to a write and
 * every read-modify-write runs under `state/im_state.lock`, re-reading all three files after the
 * lock is taken (never a process-private snapshot) and rewriting only the files that changed.
 */
export class ImAuthorityStore {
  constructor(readonly stateDir: string, private readonly lockTimeoutMs = 30_000) {}

  private path(name: keyof typeof IM_STATE_FILES): string {
    return join(this.stateDir, IM_STATE_FILES[name]);
  }

  private async load(): Promise<ImAuthorityState> {
    const [pending, authorized, subscribers] = await Promise.all([
      readJson(this.path('pending')),
      readJson(this.path('authorized')),
      readJson(this.path('subscribers')),
    ]);
    return {
      pending: parseEntries(pending, PendingEntry),
      authorized: parseEntries(authorized, AuthorizedEntry),
      subscribers: parseEntries(subscribers, SubscriberEntry),
    };
  }

  /**
   * Runs `work` on the current state under the lock; files whose content changed are written
   * atomically before the lock is released. `work` may throw to abandon the transaction
   * untouched.
   */
  async transaction<T>(work: (state: ImAuthorityState) => T | Promise<T>): Promise<T> {
    using _lock = await FileLock.acquire(join(this.stateDir, IM_STATE_LOCK), this.lockTimeoutMs);
    const state = await this.load();
    const before = {
      pending: JSON.stringify(state.pending),
      authorized: JSON.stringify(state.authorized),
      subscribers: JSON.stringify(state.subscribers),
    };
    const result = await work(state);
    for (const name of ['authorized', 'subscribers', 'pending'] as const) {
      if (JSON.stringify(state[name]) !== before[name]) {
        await writeFileAtomic(this.path(name), `${JSON.stringify(state[name], null, 2)}\n`, 0o600);
      }
    }
    return result;
  }

  /**
   * §8.16 one-way migration: writes each imported class only when its canonical file is absent
   * (canonical wins when present). Returns the classes written.
   */
  async importMissing(imported: Partial<ImAuthorityState>): Promise<string[]> {
    return this.transaction((state) => {
      const written: string[] = [];
      for (const name of ['pending', 'authorized', 'subscribers'] as const) {
        const entries = imported[name];
        if (!entries || existsSync(this.path(name))) continue;
        (state as unknown as Record<string, unknown>)[name] = entries;
        written.push(name);
      }
      return written;
    });
  }

  /** Clears all three classes (an explicit IM unset, §8.16). */
  async clear(): Promise<void> {
    await this.transaction((state) => {
      state.pending = {};
      state.authorized = {};
      state.subscribers = {};
    });
  }
}
