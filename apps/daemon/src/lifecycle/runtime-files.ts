import { rmSync } from 'node:fs';
import { writeFileAtomicSync } from '@cccc/durable-fs';
import { daemonPaths, type DaemonEndpoint } from '@cccc/ipc-protocol/node';

/**
 * `ccccd.addr.json` and `ccccd.pid` (§3.1–3.2). Written only while the home lock is held, so
 * whatever is found at start belongs to a dead daemon and is replaced.
 */
export function removeStaleRuntimeFiles(home: string): string[] {
  const paths = daemonPaths(home);
  const removed: string[] = [];
  for (const path of [paths.sock, paths.addr, paths.pid]) {
    try {
      rmSync(path);
      removed.push(path);
    } catch {
      // not there
    }
  }
  return removed;
}

export function writeRuntimeFiles(home: string, endpoint: DaemonEndpoint, version: string): void {
  const paths = daemonPaths(home);
  writeFileAtomicSync(paths.pid, `${process.pid}\n`);
  const addr =
    endpoint.transport === 'unix'
      ? { v: 1, transport: 'unix', path: endpoint.path, host: '', port: 0 }
      : { v: 1, transport: 'tcp', path: '', host: endpoint.host, port: endpoint.port };
  writeFileAtomicSync(paths.addr, JSON.stringify({ ...addr, pid: process.pid, version, ts: new Date().toISOString() }) + '\n');
}

export function removeRuntimeFiles(home: string): void {
  const paths = daemonPaths(home);
  for (const path of [paths.addr, paths.sock, paths.pid]) rmSync(path, { force: true });
}
