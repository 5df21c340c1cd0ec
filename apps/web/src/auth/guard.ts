import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../http/errors.js';
import type { AccessToken, AccessTokenStore } from './tokens.js';

export const TOKEN_COOKIE = 'cccc_access_token';

/** Who is calling: open (no tokens configured) or the token presented. */
export type Principal = { readonly kind: 'open' } | { readonly kind: 'token'; readonly token: AccessToken };

export function presentedToken(req: IncomingMessage, url: URL): { token: string; from: 'header' | 'cookie' | 'query' } | undefined {
  const auth = req.headers.authorization;
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return { token: m[1]!, from: 'header' };
  }
  const cookie = readCookie(req.headers.cookie, TOKEN_COOKIE);
  if (cookie) return { token: cookie, from: 'cookie' };
  const query = url.searchParams.get('token');
  if (query) return { token: query, from: 'query' };
  return undefined;
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * §8.5: open while no token exists; afterwards a known token is required (401 unauthorized).
 * A token presented in the header or query is copied into the cookie for the browser.
 */
export function authenticate(
  store: AccessTokenStore,
  req: IncomingMessage,
  res: ServerResponse | undefined,
  url: URL,
  options: { remote?: boolean } = {},
): Principal {
  const tokens = store.current();
  if (tokens.size === 0) {
    // A non-loopback bind is never open, even if every token was revoked after it started.
    if (options.remote) throw new HttpError(401, 'unauthorized', 'remote access needs an access token; none exists');
    return { kind: 'open' };
  }
  const presented = presentedToken(req, url);
  const token = presented ? tokens.get(presented.token) : undefined;
  if (!presented || !token) {
    throw new HttpError(401, 'unauthorized', presented ? 'unknown or revoked access token' : 'an access token is required');
  }
  if (res && presented.from !== 'cookie') {
    res.setHeader('Set-Cookie', `${TOKEN_COOKIE}=${encodeURIComponent(token.token)}; Path=/; HttpOnly; SameSite=Strict`);
  }
  return { kind: 'token', token };
}

export function canSeeGroup(principal: Principal, groupId: string): boolean {
  if (principal.kind === 'open' || principal.token.is_admin) return true;
  return principal.token.allowed_groups.includes(groupId);
}

export function requireGroup(principal: Principal, groupId: string): void {
  if (!canSeeGroup(principal, groupId)) {
    throw new HttpError(403, 'permission_denied', `this access token does not grant group ${groupId}`, { group_id: groupId });
  }
}

export function isAdminPrincipal(principal: Principal): boolean {
  return principal.kind === 'open' || principal.token.is_admin;
}

export function requireAdmin(principal: Principal): void {
  if (!isAdminPrincipal(principal)) {
    throw new HttpError(403, 'permission_denied', 'this route needs an admin access token');
  }
}

/**
 * Whether a principal admitted earlier is still admitted now (long-lived SSE / WebSocket
 * connections): its token was not revoked, and an open principal stays open only while no token
 * exists.
 */
export function stillAdmitted(store: AccessTokenStore, principal: Principal, groupId?: string): boolean {
  const tokens = store.current();
  if (principal.kind === 'open') return tokens.size === 0;
  const current = tokens.get(principal.token.token);
  if (!current) return false;
  if (groupId === undefined) return true;
  return canSeeGroup({ kind: 'token', token: current }, groupId);
}
