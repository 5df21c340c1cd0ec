import { authorizeGroupAction, checkPermission, effectiveRole, listGroups, principalOf, readObservability, type HomeLayout } from '@cccc/groups';
import { IpcError, type OpResult, type OpRouter } from '@cccc/ipc-protocol';
import { DAEMON_VERSION } from '../version.js';
import { unreadCount } from './unread.js';
import { daemonError, DaemonErrorCodes } from '../errors.js';
import type { StoreDeps } from '../kernel/store-deps.js';
import type { ActorRuntimeService } from '../runtime/actor-runtime-service.js';
import type { RuntimeRegistry } from '../runtime/runtime-registry.js';

/**
 * Developer mode is global, not per group: `CCCC_DEVELOPER_MODE=1` (or `true`/`yes`/`on`) in
 * the daemon's environment, or `observability.developer_mode: true` (§8.2), both read per
 * request so either can be toggled on a running daemon. Off, debug ops answer
 * `developer_mode_required`.
 */
export const DEVELOPER_MODE_ENV = 'CCCC_DEVELOPER_MODE';

export type DebugOpsDeps = Pick<StoreDeps, 'layout' | 'ledgers'> & {
  readonly runtimes: RuntimeRegistry;
  readonly actorRuntime: Pick<ActorRuntimeService, 'session' | 'managedSession' | 'runnerEffective'>;
};

const envFlag = (env: NodeJS.ProcessEnv, name: string) => /^(1|true|yes|on)$/i.test((env[name] ?? '').trim());

export function developerModeEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return envFlag(env, DEVELOPER_MODE_ENV);
}

/** The env switch or the global setting; a settings file that cannot be read counts as off. */
export function developerModeOn(layout: HomeLayout): boolean {
  if (developerModeEnabled()) return true;
  try {
    return readObservability(layout).developer_mode;
  } catch {
    return false;
  }
}

/** Throws `developer_mode_required` for `op` unless developer mode is on. */
export function requireDeveloperMode(layout: HomeLayout, op: string): void {
  if (developerModeOn(layout)) return;
  throw daemonError(
    DaemonErrorCodes.developerModeRequired,
    `${op} requires developer mode (observability.developer_mode, or start the daemon with ${DEVELOPER_MODE_ENV}=1)`,
    { env: DEVELOPER_MODE_ENV, setting: 'observability.developer_mode' },
  );
}

type Snapshot = OpResult<'debug_snapshot'>;

/** With this set (1/true/yes/on), debug_snapshot collects all garbage before it reports memory (benchmarks, leak hunts). */
export const DEBUG_MEMORY_GC_ENV = 'CCCC_DEBUG_MEMORY_GC';

/**
 * Collect everything collectable and give unused heap back, as a heap snapshot or the
 * inspector's "collect garbage" does (a plain `gc()` leaves the grown heap in place). Through an
 * in-process inspector session; false where this node has no inspector.
 */
async function collectAllGarbage(): Promise<boolean> {
  try {
    const { Session } = await import('node:inspector');
    const session = new Session();
    session.connect();
    try {
      await new Promise<void>((resolve, reject) => session.post('HeapProfiler.collectGarbage', (err) => (err ? reject(err) : resolve())));
    } finally {
      session.disconnect();
    }
    return true;
  } catch {
    return false;
  }
}

/** This process's memory in bytes: what is V8 heap, what is outside it (buffers, SQLite, ...). */
async function memoryFigures(): Promise<Record<string, number | boolean>> {
  const collected = envFlag(process.env, DEBUG_MEMORY_GC_ENV) && (await collectAllGarbage());
  const m = process.memoryUsage();
  return { rss: m.rss, heap_total: m.heapTotal, heap_used: m.heapUsed, external: m.external, array_buffers: m.arrayBuffers, after_gc: collected };
}

/**
 * The group's group commit since its ledger was opened in this daemon (it is not opened for
 * this): how many appends shared each write + fdatasync, and where a batch's cycle went (in
 * fdatasync, thread-pool hops included, and on the serial path between two syncs). Undefined
 * while the ledger is not open.
 */
async function ledgerCommits(ledgers: DebugOpsDeps['ledgers'], groupId: string): Promise<Record<string, number> | undefined> {
  const store = await ledgers.opened(groupId)?.catch(() => undefined);
  if (!store) return undefined;
  const s = store.appendStats();
  return { batches: s.batches, appends: s.appends, sync_ms: s.syncMs, serial_ms: s.serialMs, inline_syncs: s.inlineSyncs };
}

/** §8.1 debug_snapshot: user, or the group's foreman when group_id is given. */
export function registerDebugOps(router: OpRouter, deps: DebugOpsDeps): void {
  router.register('debug_snapshot', async (args) => {
    requireDeveloperMode(deps.layout, 'debug_snapshot');
    const by = principalOf(args.by);
    const snapshot: Snapshot = {
      developer_mode: true,
      observability: {
        developer_mode_source: developerModeEnabled() ? `env:${DEVELOPER_MODE_ENV}` : 'settings:observability.developer_mode',
        home: deps.layout.home,
        groups: listGroups(deps.layout).length,
        // Actors run as PTY processes owned by this daemon; this many are alive now.
        runtimes: 'pty',
        running_actors: deps.runtimes.entries().filter((e) => e.terminal.session && !e.terminal.session.exited).length,
        memory: await memoryFigures(),
      },
      daemon: { pid: process.pid, version: DAEMON_VERSION, ts: new Date().toISOString() },
    };
    if (args.group_id === undefined) {
      checkPermission(by, 'debug.read');
      return snapshot;
    }
    const { group } = authorizeGroupAction(deps.layout, by, 'debug.read', args.group_id);
    // Before the unread counts below, which open the ledger.
    const commits = await ledgerCommits(deps.ledgers, args.group_id);
    const actors = [];
    for (const actor of group.actors) {
      // The live surface, not the configuration: a PTY, or a managed codex app-server session.
      const session = deps.actorRuntime.session(args.group_id, actor.id);
      const managed = deps.actorRuntime.managedSession(args.group_id, actor.id);
      actors.push({
        id: actor.id,
        role: effectiveRole(group.actors, actor.id) ?? 'internal',
        runtime: actor.runtime ?? '',
        runner: actor.runner ?? 'pty',
        runner_effective: deps.actorRuntime.runnerEffective(args.group_id, actor.id) ?? 'pty',
        enabled: actor.enabled !== false,
        running: session !== undefined || managed !== undefined,
        pid: session?.pid ?? null,
        ...(managed ? { app_server_pid: managed.session.pid, session_id: managed.session.sessionId } : {}),
        unread_count: await unreadCount(deps, args.group_id, actor.id),
      });
    }
    return {
      ...snapshot,
      observability: { ...snapshot.observability, ...(commits ? { ledger_commits: commits } : {}) },
      group: { group_id: group.group_id, state: group.state, active_scope_key: group.active_scope_key, title: group.title },
      actors,
      delivery: { runtime_delivery: 'pty', group_running: group.running },
    };
  });
}
