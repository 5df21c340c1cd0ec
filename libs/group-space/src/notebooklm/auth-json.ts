import { spaceError } from '../errors.js';

/** Largest storage-state document accepted (a browser session is a few KB). */
export const MAX_AUTH_JSON_BYTES = 256 * 1024;

/**
 * Validate a NotebookLM `auth_json`: a browser storage-state document (`{cookies: [...],
 * origins?: [...]}`) holding at least one cookie of a google.com domain. Pure; errors name the
 * reason, never the content (it is a secret).
 */
export function validateAuthJson(text: unknown): { cookieCount: number } {
  if (typeof text !== 'string' || text.trim() === '') throw spaceError('invalid_request', 'auth_json must be a non-empty string', { field: 'auth_json' });
  if (Buffer.byteLength(text, 'utf8') > MAX_AUTH_JSON_BYTES) {
    throw spaceError('space_provider_auth_invalid', `auth_json is larger than ${MAX_AUTH_JSON_BYTES} bytes`, { field: 'auth_json', reason: 'too_large' });
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw spaceError('space_provider_auth_invalid', 'auth_json is not valid JSON', { field: 'auth_json', reason: 'not_json' });
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw spaceError('space_provider_auth_invalid', 'auth_json must be a storage-state object', { field: 'auth_json', reason: 'not_object' });
  }
  const cookies = (doc as { cookies?: unknown }).cookies;
  if (!Array.isArray(cookies)) throw spaceError('space_provider_auth_invalid', 'auth_json has no cookies array', { field: 'auth_json', reason: 'no_cookies' });
  let google = 0;
  for (const c of cookies) {
    if (typeof c !== 'object' || c === null) throw spaceError('space_provider_auth_invalid', 'a cookie is not an object', { field: 'auth_json', reason: 'bad_cookie' });
    const { name, value, domain } = c as Record<string, unknown>;
    if (typeof name !== 'string' || typeof value !== 'string' || typeof domain !== 'string') {
      throw spaceError('space_provider_auth_invalid', 'a cookie lacks a string name, value or domain', { field: 'auth_json', reason: 'bad_cookie' });
    }
    if (/(^|\.)google\.com$/i.test(domain.replace(/^\./, ''))) google++;
  }
  if (google === 0) throw spaceError('space_provider_auth_invalid', 'auth_json holds no google.com cookie', { field: 'auth_json', reason: 'no_google_cookie' });
  return { cookieCount: cookies.length };
}
