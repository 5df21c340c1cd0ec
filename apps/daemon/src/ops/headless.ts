import { findActor, groupError, principalOf, utcNowIso } from '@cccc/groups';
import type { HeadlessControlState, OpRouter } from '@cccc/ipc-protocol';
import { ManagedControlError } from '@cccc/pty-runtime';
import { daemonError, DaemonErrorCodes } from '../errors.js';
import type { StoreDeps } from '../kernel/store-deps.js';
import type { ActorRuntimeService } from '../runtime/actor-runtime-service.js';
import { type ManagedEntry } from '../runtime/managed-actors.js';

export type HeadlessOpsDeps = StoreDeps & { readonly actorRuntime: ActorRuntimeService };

/** §8.9 control state of the actual managed session. */
export function controlState(entry: ManagedEntry): HeadlessControlState {
  const state = entry.session.state();
  return {
    generation: entry.generation,
    runtime: entry.runtime,
    runtime_mode: entry.runtimeMode,
    runner: entry.runner,
    running: !entry.session.exited,
    working: state.working,
    permissions: state.permissions.map((p) => ({ ...p, summary: { ...p.summary } })),
  };
}

/** The actor's running managed session, or `session_not_found` (a read never starts one). */
function requireSession(deps: HeadlessOpsDeps, groupId: string, actorId: string): ManagedEntry {
  findActor(deps.groups.get(groupId).actors, actorId); // group_not_found / actor_not_found first
  const entry = deps.actorRuntime.managedSession(groupId, actorId);
  if (!entry) throw daemonError(DaemonErrorCodes.sessionNotFound, `actor ${actorId} has no running managed session`, { actor_id: actorId });
  return entry;
}

function statusOf(entry: ManagedEntry): Record<string, unknown> {
  const s = entry.session.state();
  return {
    group_id: entry.groupId,
    actor_id: entry.actorId,
    runtime: entry.runtime,
    runner_effective: entry.runner,
    generation: entry.generation,
    session_id: s.session_id,
    pid: entry.session.pid,
    started_at: entry.startedAt,
    status: s.state,
    working: s.working,
    active_turn_id: s.active_turn_id,
    pending_permissions: s.permissions.length,
    runtime_state_source: entry.stateSource,
    state_reason: s.reason,
    updated_at: s.updated_at,
    self_status: entry.selfStatus,
  };
}

/** §8.9 Structured Runtime State: the managed session's status and a person's controls. */
export function registerHeadlessOps(router: OpRouter, deps: HeadlessOpsDeps): void {
  router.register('headless_status', (args) => ({ state: statusOf(requireSession(deps, args.group_id, args.actor_id)) }));

  // The session's own events stay the authority for working state; this records what the
  // actor says about itself (and its task) beside them.
  router.register('headless_set_status', (args) => {
    const entry = requireSession(deps, args.group_id, args.actor_id);
    deps.actorRuntime.managed.setSelfStatus(entry, { status: args.status, task_id: args.task_id ?? null, updated_at: utcNowIso() });
    return { state: statusOf(entry) };
  });

  router.register('headless_control_state', (args) => {
    findActor(deps.groups.get(args.group_id).actors, args.actor_id);
    const entry = deps.actorRuntime.managedSession(args.group_id, args.actor_id);
    return { state: entry ? controlState(entry) : null };
  });

  router.register('headless_control', async (args) => {
    const by = principalOf(args.by);
    if (by !== 'user') throw groupError('permission_denied', 'only the user answers a managed session', { by });
    const entry = requireSession(deps, args.group_id, args.actor_id);
    if (args.generation !== entry.generation) {
      throw daemonError(DaemonErrorCodes.staleGeneration, 'the session generation changed', { actor_id: args.actor_id, generation: args.generation });
    }
    try {
      switch (args.action) {
        case 'permission':
          if (!args.request_id || typeof args.allow !== 'boolean') {
            throw groupError('invalid_request', 'permission needs request_id and allow', { field: args.request_id ? 'allow' : 'request_id' });
          }
          entry.session.answerPermission(args.request_id, args.allow);
          break;
        case 'interaction':
          if (!args.request_id || args.response === undefined) {
            throw groupError('invalid_request', 'interaction needs request_id and response', { field: args.request_id ? 'response' : 'request_id' });
          }
          entry.session.answerInteraction(args.request_id, args.response);
          break;
        case 'cancel':
          await entry.session.cancel();
          break;
      }
    } catch (error) {
      if (error instanceof ManagedControlError) {
        // An answer that does not fit the pending questions changes nothing: the request stays pending.
        if (error.code === 'invalid_response') throw groupError('invalid_request', error.message, { field: 'response', actor_id: args.actor_id });
        const code =
          error.code === 'request_not_found'
            ? DaemonErrorCodes.requestNotFound
            : error.code === 'no_active_turn'
              ? DaemonErrorCodes.noActiveTurn
              : DaemonErrorCodes.sessionNotFound;
        throw daemonError(code, error.message, { actor_id: args.actor_id });
      }
      throw error;
    }
    return { ok: true as const, state: controlState(entry) };
  });
}
