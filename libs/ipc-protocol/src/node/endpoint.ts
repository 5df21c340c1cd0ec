import { readFileSync } from 'node:fs';
import { DaemonAddrV1 } from '../addr.js';
import { daemonPaths } from './home.js';

export type DaemonEndpoint =
  | { readonly transport: 'unix'; readonly path: string }
  | { readonly transport: 'tcp'; readonly host: string; readonly port: number };

/**
 * §3 endpoint discovery: the daemon-written descriptor, or, when it is missing or invalid, the
 * default unix socket path.
 */
export function discoverEndpoint(home: string): DaemonEndpoint {
  const paths = daemonPaths(home);
  try {
    const addr = DaemonAddrV1.safeParse(JSON.parse(readFileSync(paths.addr, 'utf8')));
    if (addr.success) {
      return addr.data.transport === 'unix'
        ? { transport: 'unix', path: addr.data.path }
        : { transport: 'tcp', host: addr.data.host, port: addr.data.port };
    }
  } catch {
    // Missing or unreadable descriptor: fall back below.
  }
  return { transport: 'unix', path: paths.sock };
}

export function describeEndpoint(endpoint: DaemonEndpoint): string {
  return endpoint.transport === 'unix' ? `unix:${endpoint.path}` : `tcp:${endpoint.host}:${endpoint.port}`;
}
