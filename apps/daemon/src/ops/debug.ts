import { authorizeGroupAction, checkPermission, effectiveRole, listGroups, principalOf } from '@cccc/groups';
import { IpcError, type OpResult, type OpRouter } from '@cccc/ipc-protocol';
import { DAEMON_VERSION } from '../version.js';
import { unreadCount } from './unread.js';
import { daemonError, DaemonErrorCodes } from '../errors.js';
import type { StoreDeps } from '../kernel/store-deps.js';
import type { ActorRuntimeService } from '../runtime/actor-runtime-service.js';
import type { RuntimeRegistry } from '../runtime/runtime-registry.js';

/**
 * Developer mode is a property of the daemon process, not of a group: `CCCC_DEVELOPER_MODE=1`
 * (or `true`/`yes`/`on`) in the daemon's environment, read per request so it can be toggled
 * for an in-process daemon. Off, debug ops answer `developer_mode_required`.
 */
export const DEVELOPER_MODE_ENV = 'CCCC_DEVELOPER_MODE';

export type DebugOpsDeps = Pick<StoreDeps, 'layout' | 'ledgers'> & {
  readonly runtimes: RuntimeRegistry;
  readonly actorRuntime: Pick<ActorRuntimeService, 'session'>;
};

export function developerModeEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return /^(1|true|yes|on)$/i.test((env[DEVELOPER_MODE_ENV] ?? '').trim());
}

type Snapshot = OpResult<'debug_snapshot'>;

/**
 * This process's memory in bytes: what is V8 heap, what is outside it (buffers, SQLite, ...).
 * A daemon started with `node --expose-gc` (benchmarks, a developer chasing a leak) collects
 * garbage first, so the figures are what is retained rather than what the GC has not reached yet.
 */
function memoryFigures(): Record<string, number | boolean> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc === 'function') gc();
  const m = process.memoryUsage();
  return { rss: m.rss, heap_total: m.heapTotal, heap_used: m.heapUsed, external: m.external, array_buffers: m.arrayBuffers, after_gc: typeof gc === 'function' };
}

/** §8.1 debug_snapshot: user, or the group's foreman when group_id is given. */
export function registerDebugOps(router: OpRouter, deps: DebugOpsDeps): void {
  router.register('debug_snapshot', async (args) => {
    if (!developerModeEnabled()) {
      throw daemonError(DaemonErrorCodes.developerModeRequired, `debug_snapshot requires developer mode (start the daemon with ${DEVELOPER_MODE_ENV}=1)`, {
        env: DEVELOPER_MODE_ENV,
      });
    }
    const by = principalOf(args.by);
    const snapshot: Snapshot = {
      developer_mode: true,
      observability: {
        developer_mode_source: `env:${DEVELOPER_MODE_ENV}`,
        home: deps.layout.home,
        groups: listGroups(deps.layout).length,
        // Actors run as PTY processes owned by this daemon; this many are alive now.
        runtimes: 'pty',
        running_actors: deps.runtimes.entries().filter((e) => e.terminal.session && !e.terminal.session.exited).length,
        memory: memoryFigures(),
      },
      daemon: { pid: process.pid, version: DAEMON_VERSION, ts: new Date().toISOString() },
    };
    if (args.group_id === undefined) {
      checkPermission(by, 'debug.read');
      return snapshot;
    }
    const { group } = authorizeGroupAction(deps.layout, by, 'debug.read', args.group_id);
    const actors = [];
    for (const actor of group.actors) {
      // The live session, not the configuration: a PTY is the only runner this daemon has.
      const session = deps.actorRuntime.session(args.group_id, actor.id);
      actors.push({
        id: actor.id,
        role: effectiveRole(group.actors, actor.id) ?? 'internal',
        runtime: actor.runtime ?? '',
        runner: actor.runner ?? 'pty',
        runner_effective: 'pty',
        enabled: actor.enabled !== false,
        running: session !== undefined,
        pid: session?.pid ?? null,
        unread_count: await unreadCount(deps, args.group_id, actor.id),
      });
    }
    return {
      ...snapshot,
      group: { group_id: group.group_id, state: group.state, active_scope_key: group.active_scope_key, title: group.title },
      actors,
      delivery: { runtime_delivery: 'pty', group_running: group.running },
    };
  });
}
