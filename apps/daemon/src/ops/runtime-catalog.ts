import type { OpRouter } from '@cccc/ipc-protocol';
import { RUNTIME_CATALOG, detectInstalled } from '@cccc/pty-runtime';

/**
 * runtime_list (issue 16 extension): the runtime catalog and which CLIs are on this daemon's
 * PATH, the PATH actors are launched with. The Web reads it through this op instead of loading
 * the PTY library itself.
 */
export function registerRuntimeCatalogOps(router: OpRouter): void {
  router.register('runtime_list', () => ({
    runtimes: RUNTIME_CATALOG.map((r) => ({ ...detectInstalled(r.id), transport: r.transport, command: [...r.command] })),
  }));
}
