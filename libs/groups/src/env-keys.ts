import { groupError } from './errors.js';

/** POSIX-portable environment variable name: a letter or `_`, then letters, digits, `_`. */
export const ENV_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const MAX_ENV_KEY_LENGTH = 256;

export function assertValidEnvKey(key: string): void {
  if (!ENV_KEY_PATTERN.test(key) || key.length > MAX_ENV_KEY_LENGTH) {
    throw groupError('invalid_env_key', `invalid environment variable name: ${JSON.stringify(key.slice(0, 64))}`, {
      key: key.slice(0, 64),
    });
  }
}

/** Validate an env map: names as above, values strings without NUL. Never echoes values. */
export function assertValidEnvMap(env: unknown, field = 'env'): Record<string, string> {
  if (typeof env !== 'object' || env === null || Array.isArray(env)) {
    throw groupError('invalid_request', `${field} must be an object of strings`, { field });
  }
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    assertValidEnvKey(key);
    if (typeof value !== 'string' || value.includes('\0')) {
      throw groupError('invalid_request', `${field}.${key} must be a string without NUL`, { field, key });
    }
    out[key] = value;
  }
  return out;
}
