import { chmodSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { FileLock, writeFileAtomicSync } from '@cccc/durable-fs';
import { assertValidEnvKey, assertValidEnvMap } from './env-keys.js';
import { groupError } from './errors.js';
import type { HomeLayout } from './home-layout.js';
import { SecretsDoc } from './schemas/profile.js';

export const SECRET_FILE_MODE = 0o600;
export const SECRET_DIR_MODE = 0o700;

/** Create `dir` and every missing parent below `state/secrets` with mode 0700. */
function ensureSecretDir(layout: HomeLayout, dir: string): void {
  mkdirSync(layout.secretsDir, { recursive: true, mode: SECRET_DIR_MODE });
  chmodSync(layout.secretsDir, SECRET_DIR_MODE);
  let current = layout.secretsDir;
  for (const part of relative(layout.secretsDir, dir).split(sep).filter(Boolean)) {
    current = `${current}${sep}${part}`;
    mkdirSync(current, { recursive: true, mode: SECRET_DIR_MODE });
    chmodSync(current, SECRET_DIR_MODE);
  }
}

/** The stored secret map (empty when the file is missing). Internal: never part of a read result. */
export function readSecretMap(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  const parsed = SecretsDoc.safeParse(JSON.parse(text));
  // A malformed file is reported by name only; its content may be secret.
  if (!parsed.success) throw groupError('invalid_request', `secrets file is malformed: ${path}`, {});
  return parsed.data;
}

export function writeSecretMap(layout: HomeLayout, path: string, map: Record<string, string>): void {
  if (Object.keys(map).length === 0) {
    rmSync(path, { force: true });
    return;
  }
  ensureSecretDir(layout, dirname(path));
  writeFileAtomicSync(path, JSON.stringify(map, null, 2), SECRET_FILE_MODE);
  chmodSync(path, SECRET_FILE_MODE);
}

export interface SecretMapUpdate {
  set?: Record<string, string>;
  unset?: string[];
  /** Remove every key first (wins over the previous content; `set` still applies after it). */
  clear?: boolean;
}

/** Validate an update without touching disk (names and value types only). */
export function validateSecretUpdate(update: SecretMapUpdate): void {
  if (update.set !== undefined) assertValidEnvMap(update.set, 'set');
  if (update.unset !== undefined) {
    if (!Array.isArray(update.unset)) throw groupError('invalid_request', 'unset must be an array of names', { field: 'unset' });
    for (const key of update.unset) assertValidEnvKey(String(key));
  }
}

/** Pure: the map after an update. `clear` empties it, then `unset` removes, then `set` writes. */
export function applySecretUpdate(current: Record<string, string>, update: SecretMapUpdate): Record<string, string> {
  const next: Record<string, string> = update.clear ? {} : { ...current };
  for (const key of update.unset ?? []) delete next[key];
  Object.assign(next, update.set ?? {});
  return next;
}

/** Read-modify-write one secret file under the secrets lock; returns the sorted key names only. */
export async function updateSecretFile(layout: HomeLayout, path: string, update: SecretMapUpdate | ((current: Record<string, string>) => Record<string, string>)): Promise<string[]> {
  if (typeof update !== 'function') validateSecretUpdate(update);
  ensureSecretDir(layout, layout.secretsDir);
  const lock = await FileLock.acquire(layout.secretsLockPath);
  try {
    const current = readSecretMap(path);
    const next = typeof update === 'function' ? update(current) : applySecretUpdate(current, update);
    writeSecretMap(layout, path, next);
    return Object.keys(next).sort();
  } finally {
    lock.release();
  }
}

export function secretKeys(path: string): string[] {
  return Object.keys(readSecretMap(path)).sort();
}

/** A preview that never reveals a short secret: `su******et` for long values, `******` otherwise. */
export function maskSecret(value: string): string {
  return value.length >= 10 ? `${value.slice(0, 2)}******${value.slice(-2)}` : '******';
}
