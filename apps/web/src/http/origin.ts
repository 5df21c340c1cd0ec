import type { IncomingMessage } from 'node:http';
import { isLoopbackHost } from '@cccc/ipc-protocol/node';
import { HttpError } from './errors.js';

/**
 * Browser-side protections for a server that may run open (local trust, no tokens):
 * - a cross-site page must not drive the API: a request whose `Origin` names another host than
 *   the one it was sent to is refused (covers form posts and WebSocket upgrades, which CORS does
 *   not block);
 * - DNS rebinding: a server bound to loopback only answers `Host` names that are loopback.
 */
export function checkBrowserOrigin(req: IncomingMessage, boundHost: string, options: { requireSameOriginAlways?: boolean } = {}): void {
  const host = req.headers.host ?? '';
  if (isLoopbackHost(boundHost) && host && !isLoopbackHost(hostnameOf(host))) {
    throw new HttpError(403, 'permission_denied', `host ${host} is not a loopback name`, { host });
  }
  const origin = req.headers.origin;
  const method = req.method ?? 'GET';
  const unsafe = options.requireSameOriginAlways || !(method === 'GET' || method === 'HEAD' || method === 'OPTIONS');
  if (!origin || !unsafe) return;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    originHost = '';
  }
  if (originHost !== host) {
    throw new HttpError(403, 'permission_denied', `cross-origin request from ${origin} refused`, { origin });
  }
}

function hostnameOf(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1);
  const colon = hostHeader.lastIndexOf(':');
  return colon > 0 ? hostHeader.slice(0, colon) : hostHeader;
}
