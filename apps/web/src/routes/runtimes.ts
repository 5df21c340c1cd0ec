import { RUNTIME_CATALOG, detectInstalled } from '@cccc/pty-runtime';
import { Router } from '../http/router.js';

/** `GET /api/v1/runtimes`: the runtime catalog and which CLIs are on this machine's PATH. */
export function runtimeRoutes(): Router {
  return new Router('/api/v1').get('/runtimes', () => ({
    runtimes: RUNTIME_CATALOG.map((r) => ({ ...detectInstalled(r.id), transport: r.transport, command: r.command })),
  }));
}
