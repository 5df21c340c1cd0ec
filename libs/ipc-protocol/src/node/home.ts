import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { DAEMON_ADDR_FILE, DAEMON_SOCK_FILE } from './endpoint.js';

/** §3: `CCCC_HOME` when set (and not blank), else `~/.cccc`. */
export function resolveCcccHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.CCCC_HOME?.trim();
  return fromEnv ? resolve(fromEnv) : join(homedir(), '.cccc');
}

/**
 * Create the home (and any missing parent) owner-only, 0700: it holds the daemon socket, access
 * tokens and actor secrets. Every process that may be the first to write into a home calls this
 * (daemon start, `cccc daemon start`, the Web's token store); an existing home is left as it is
 * (`cccc doctor` reports a loose one).
 */
export function ensureCcccHome(home: string): string {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  return home;
}

export function daemonDir(home: string): string {
  return join(home, 'daemon');
}

export const daemonPaths = (home: string) => {
  const dir = daemonDir(home);
  return {
    dir,
    addr: join(dir, DAEMON_ADDR_FILE),
    sock: join(dir, DAEMON_SOCK_FILE),
    pid: join(dir, 'ccccd.pid'),
    log: join(dir, 'ccccd.log'),
    lock: join(dir, 'ccccd.lock'),
  };
};
