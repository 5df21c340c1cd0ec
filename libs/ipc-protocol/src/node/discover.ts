import { readFileSync } from 'node:fs';
import { discoverEndpointWith, type DaemonEndpoint } from './endpoint.js';

/** §3 endpoint discovery of the daemon of `home` (see discoverEndpointWith). */
export function discoverEndpoint(home: string): DaemonEndpoint {
  return discoverEndpointWith(home, (path) => readFileSync(path, 'utf8'));
}
