import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

// The Web's half of §8.17: a non-loopback bind needs remote access switched on (settings.yaml
// `remote_access`, written by the daemon's remote_access_configure/start) as well as an admin
// access token. Unreadable or malformed settings count as off.

export function remoteAccessOn(home: string): boolean {
  try {
    const doc = parse(readFileSync(join(home, 'settings.yaml'), 'utf8')) as { remote_access?: { provider?: unknown; enabled?: unknown } } | null;
    const ra = doc?.remote_access;
    return ra?.enabled === true && typeof ra.provider === 'string' && ra.provider !== 'off';
  } catch {
    return false;
  }
}
