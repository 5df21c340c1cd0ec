// No imports at all, like the rest of the exchange (see line-exchange.ts): `cccc hook`'s bundle
// discovers the daemon with this too and must load nothing but the builtins it already loads, so
// the one file read is the caller's. endpoint.test.ts holds the descriptor check below against
// `DaemonAddrV1`, the descriptor's one schema.

/** File names under `<CCCC_HOME>/daemon/` (§3.1). */
export const DAEMON_ADDR_FILE = 'ccccd.addr.json';
export const DAEMON_SOCK_FILE = 'ccccd.sock';

export type DaemonEndpoint =
  | { readonly transport: 'unix'; readonly path: string }
  | { readonly transport: 'tcp'; readonly host: string; readonly port: number };

/** What `net.createConnection` takes to reach an endpoint (a DaemonEndpoint is one). */
export type SocketAddress = { readonly path: string } | { readonly host: string; readonly port: number };

const isString = (v: unknown): v is string => typeof v === 'string';

/**
 * The endpoint a `ccccd.addr.json` value names, or null when `DaemonAddrV1` would refuse it:
 * `v: 1`; `path`/`host` strings (default ''), `port` a non-negative integer (default 0), `pid`
 * an integer, `version`/`ts` strings when present; unix needs a path, tcp a host and a port.
 */
export function endpointFromDescriptor(value: unknown): DaemonEndpoint | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const a = value as Record<string, unknown>;
  const text = (key: string): string | null => (a[key] === undefined ? '' : isString(a[key]) ? a[key] : null);
  const optional = (key: string, ok: (v: unknown) => boolean): boolean => a[key] === undefined || ok(a[key]);
  const path = text('path');
  const host = text('host');
  const port = a.port === undefined ? 0 : Number.isSafeInteger(a.port) && (a.port as number) >= 0 ? (a.port as number) : null;
  if (a.v !== 1 || path === null || host === null || port === null) return null;
  if (!optional('pid', Number.isSafeInteger) || !optional('version', isString) || !optional('ts', isString)) return null;
  if (a.transport === 'unix') return path ? { transport: 'unix', path } : null;
  if (a.transport === 'tcp') return host && port > 0 ? { transport: 'tcp', host, port } : null;
  return null;
}

/**
 * §3 endpoint discovery: the daemon-written descriptor, or, when it is missing or invalid, the
 * default unix socket path. `readText` reads a file as UTF-8 (and throws when it cannot).
 */
export function discoverEndpointWith(home: string, readText: (path: string) => string): DaemonEndpoint {
  try {
    const endpoint = endpointFromDescriptor(JSON.parse(readText(`${home}/daemon/${DAEMON_ADDR_FILE}`)));
    if (endpoint) return endpoint;
  } catch {
    // Missing or unreadable descriptor: fall back below.
  }
  return { transport: 'unix', path: `${home}/daemon/${DAEMON_SOCK_FILE}` };
}

export function describeEndpoint(endpoint: SocketAddress): string {
  return 'path' in endpoint ? `unix:${endpoint.path}` : `tcp:${endpoint.host}:${endpoint.port}`;
}
