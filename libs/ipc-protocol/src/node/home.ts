import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** §3: `CCCC_HOME` when set (and not blank), else `~/.cccc`. */
export function resolveCcccHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.CCCC_HOME?.trim();
  return fromEnv ? resolve(fromEnv) : join(homedir(), '.cccc');
}

export function daemonDir(home: string): string {
  return join(home, 'daemon');
}

export const daemonPaths = (home: string) => {
  const dir = daemonDir(home);
  return {
    dir,
    addr: join(dir, 'ccccd.addr.json'),
    sock: join(dir, 'ccccd.sock'),
    pid: join(dir, 'ccccd.pid'),
    log: join(dir, 'ccccd.log'),
    lock: join(dir, 'ccccd.lock'),
  };
};
