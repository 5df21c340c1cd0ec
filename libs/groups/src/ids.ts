import { createHash, randomBytes } from 'node:crypto';

export const GROUP_ID_PATTERN = /^g_[0-9a-f]{12}$/;
export const SCOPE_KEY_PATTERN = /^s_[0-9a-f]{12}$/;

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** A fresh group id for `group_create`: `g_` + 12 random hex. */
export function newGroupId(): string {
  return `g_${randomBytes(6).toString('hex')}`;
}

/** The deterministic id `attach` gives an auto-created group: `g_` + sha256(git remote or path)[:12]. */
export function groupIdForScope(identity: string): string {
  return `g_${sha256Hex(identity).slice(0, 12)}`;
}

/** `s_` + sha256(normalized git remote, else repo root path)[:12]. */
export function scopeKeyFor(identity: string): string {
  return `s_${sha256Hex(identity).slice(0, 12)}`;
}

/** A loose check for ids that end up in file paths: group ids must never be able to escape the home. */
export function isSafeGroupId(value: string): boolean {
  return /^g_[A-Za-z0-9_-]{1,64}$/.test(value);
}
