import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from './errors.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  readonly params: Record<string, string>;
  /** The access check for the group a route touches (no-op when the Web is open). */
  requireGroup(groupId: string): void;
  /** Admin-only routes (config, unscoped writes). */
  requireAdmin(): void;
  /** The caller may do what an admin may: an admin token, or an open Web. */
  isAdmin(): boolean;
  /** Whether a group is visible to the caller (list filtering). */
  canSeeGroup(groupId: string): boolean;
  /** Re-checked by long-lived streams: false once the caller's token was revoked. */
  stillAdmitted(groupId?: string): boolean;
}

/**
 * A handler returns the `result` of the `{ok: true, result}` envelope, or `undefined` when it
 * wrote the response itself (SSE).
 */
export type Handler = (ctx: RequestContext) => Promise<unknown> | unknown;

interface Route {
  readonly method: Method;
  readonly parts: readonly string[];
  readonly handler: Handler;
}

/** A tiny path router: `/groups/:gid/actors/:aid`, exact segment match, params decoded. */
export class Router {
  private readonly routes: Route[] = [];

  constructor(private readonly prefix = '') {}

  on(method: Method, path: string, handler: Handler): this {
    this.routes.push({ method, parts: split(this.prefix + path), handler });
    return this;
  }
  get(path: string, handler: Handler): this {
    return this.on('GET', path, handler);
  }
  post(path: string, handler: Handler): this {
    return this.on('POST', path, handler);
  }
  put(path: string, handler: Handler): this {
    return this.on('PUT', path, handler);
  }
  delete(path: string, handler: Handler): this {
    return this.on('DELETE', path, handler);
  }

  /** Merge another router's routes (route files build their own). */
  use(other: Router): this {
    this.routes.push(...other.routes);
    return this;
  }

  /** The matching handler and params; 404 / 405 as HttpError when none. */
  match(method: string, pathname: string): { handler: Handler; params: Record<string, string> } {
    const parts = split(pathname);
    let pathMatched = false;
    for (const route of this.routes) {
      const params = matchParts(route.parts, parts);
      if (!params) continue;
      pathMatched = true;
      if (route.method === method) return { handler: route.handler, params };
    }
    if (pathMatched) throw new HttpError(405, 'method_not_allowed', `${method} is not allowed on ${pathname}`);
    throw new HttpError(404, 'unknown_route', `no route for ${method} ${pathname}`);
  }
}

function split(path: string): string[] {
  return path.split('/').filter((p) => p.length > 0);
}

function matchParts(pattern: readonly string[], parts: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    let value: string;
    try {
      value = decodeURIComponent(parts[i]!);
    } catch {
      return undefined;
    }
    if (p.startsWith(':')) params[p.slice(1)] = value;
    else if (p !== value) return undefined;
  }
  return params;
}
