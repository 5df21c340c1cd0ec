import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { ensureCcccHome } from '@cccc/ipc-protocol/node';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { z } from 'zod';

// access_tokens.yaml in CCCC_HOME (REFERENCE_NOTES §2, §8.5):
//   {tokens: {"acc_<32hex>": {user_id, allowed_groups[], is_admin, created_at, updated_at}}}
// The key is the secret itself; `cccc web token create` prints it once.

export const TOKEN_PATTERN = /^acc_[0-9a-f]{32}$/;

export const AccessTokenEntry = z.looseObject({
  user_id: z.string().default('user'),
  allowed_groups: z.array(z.string()).default([]),
  is_admin: z.boolean().default(false),
  created_at: z.string().default(''),
  updated_at: z.string().default(''),
});
export type AccessTokenEntry = z.infer<typeof AccessTokenEntry>;

const AccessTokensFile = z.object({ tokens: z.record(z.string(), AccessTokenEntry).nullish() }).passthrough();

export interface AccessToken extends AccessTokenEntry {
  readonly token: string;
}

export function accessTokensPath(home: string): string {
  return join(home, 'access_tokens.yaml');
}

/** All tokens in the file; a missing file is none. A malformed file throws (never opens the Web). */
export function readAccessTokens(home: string): AccessToken[] {
  let text: string;
  try {
    text = readFileSync(accessTokensPath(home), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const raw = text.trim() === '' ? {} : parse(text);
  const file = AccessTokensFile.parse(raw ?? {});
  return Object.entries(file.tokens ?? {}).map(([token, entry]) => ({ token, ...entry }));
}

function writeAccessTokens(home: string, tokens: readonly AccessToken[]): void {
  ensureCcccHome(home);
  const doc = {
    tokens: Object.fromEntries(tokens.map(({ token, ...entry }) => [token, entry])),
  };
  const path = accessTokensPath(home);
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, stringify(doc), { mode: 0o600 });
  renameSync(tmp, path);
}

export interface CreateTokenOptions {
  readonly admin?: boolean;
  readonly groups?: readonly string[];
  readonly userId?: string;
}

export function createAccessToken(home: string, options: CreateTokenOptions = {}): AccessToken {
  const groups = [...new Set((options.groups ?? []).map((g) => g.trim()).filter(Boolean))];
  if (!options.admin && groups.length === 0) throw new Error('a non-admin token needs at least one --group');
  const now = new Date().toISOString();
  const token: AccessToken = {
    token: `acc_${randomBytes(16).toString('hex')}`,
    user_id: options.userId ?? 'user',
    allowed_groups: options.admin ? [] : groups,
    is_admin: Boolean(options.admin),
    created_at: now,
    updated_at: now,
  };
  writeAccessTokens(home, [...readAccessTokens(home), token]);
  return token;
}

/** `acc_` plus the first 8 hex digits: enough to name a token in a list without revealing it. */
export function tokenPrefix(token: string): string {
  return token.slice(0, 12);
}

/** Revoke by the full token or a unique prefix of at least 8 characters; returns the removed one. */
export function revokeAccessToken(home: string, idOrPrefix: string): AccessToken {
  const key = idOrPrefix.trim();
  const tokens = readAccessTokens(home);
  const matches = key.length >= 8 ? tokens.filter((t) => t.token === key || t.token.startsWith(key)) : [];
  if (matches.length === 0) throw new Error(`no access token matches ${JSON.stringify(key)}`);
  if (matches.length > 1) throw new Error(`${JSON.stringify(key)} matches ${matches.length} tokens; give more characters`);
  const removed = matches[0]!;
  writeAccessTokens(home, tokens.filter((t) => t !== removed));
  return removed;
}

/**
 * The token file as the server sees it: re-read whenever its identity (inode, size, mtime)
 * changes, so a token created or revoked while the server runs applies to the next request.
 */
export class AccessTokenStore {
  private stamp = '';
  private tokens = new Map<string, AccessToken>();

  constructor(private readonly home: string) {}

  current(): ReadonlyMap<string, AccessToken> {
    let stamp = 'missing';
    try {
      const s = statSync(accessTokensPath(this.home), { bigint: true });
      stamp = `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
    } catch {
      // missing: no tokens
    }
    if (stamp !== this.stamp) {
      this.tokens = new Map(readAccessTokens(this.home).map((t) => [t.token, t]));
      this.stamp = stamp;
    }
    return this.tokens;
  }

  hasAdmin(): boolean {
    return [...this.current().values()].some((t) => t.is_admin);
  }
}
