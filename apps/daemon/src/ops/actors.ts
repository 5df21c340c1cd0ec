import {
  actorPrivateEnvKeys,
  actorViews,
  addActor,
  convertActorToCustom,
  groupError,
  principalOf,
  removeActor,
  updateActor,
  updateActorPrivateEnv,
  type ActorDoc,
} from '@cccc/groups';
import type { OpArgs, OpRouter } from '@cccc/ipc-protocol';
import { isKnownRuntime } from '@cccc/pty-runtime';
import { changeGroupFiles, writeGroup } from './group-write.js';
import { unreadCount } from './unread.js';
import type { StoreDeps } from '../kernel/store-deps.js';
import type { ActorRuntimeService } from '../runtime/actor-runtime-service.js';
import type { WorkingStateService } from '../hooks/working-state-service.js';

export type ActorsOpsDeps = StoreDeps & {
  readonly actorRuntime: ActorRuntimeService;
  readonly workingState: Pick<WorkingStateService, 'view'>;
};

/** §8.4 Actors (actor_start/stop/restart live in lifecycle.ts). */
export function registerActorsOps(router: OpRouter, deps: ActorsOpsDeps): void {
  const { layout } = deps;

  // Internal actors (voice secretary) have no role and are reached only by explicit id.
  router.register('actor_list', async (args) => {
    const visible = actorViews(deps.groups.get(args.group_id).actors).filter((a) => a.role !== null);
    const actors = [];
    for (const view of visible) {
      const running = deps.actorRuntime.isRunning(args.group_id, view.id);
      const managed = deps.actorRuntime.managedSession(args.group_id, view.id);
      const w = await deps.workingState.view(args.group_id, view.id);
      const working = {
        effective_working_state: w.effective_working_state,
        effective_working_reason: w.effective_working_reason,
        effective_working_updated_at: w.effective_working_updated_at,
        busy: w.busy,
        input_state: w.input_state,
        turn_phase: w.turn_phase,
        cli_alive: w.cli_alive,
        state_source: w.state_source,
      };
      const entry = {
        ...view,
        role: view.role!,
        title: view.title ?? '',
        runtime: view.runtime ?? '',
        enabled: view.enabled !== false,
        running,
        // The surface it actually runs on (§8.4): a managed codex session reports its app-server.
        runner_effective: deps.actorRuntime.runnerEffective(args.group_id, view.id) ?? view.runner ?? 'pty',
        // The configured mode, and the surface that actually runs (a headless ACP session: acp).
        runtime_mode: view.runtime_mode === 'acp' ? ('acp' as const) : ('default' as const),
        effective_runtime_mode: managed?.runtimeMode ?? 'default',
        runtime_state_source: managed?.stateSource ?? (w.state_source === 'app_server' ? 'app_server' : (view.runtime_state_source ?? 'terminal')),
        ...working,
        ...deps.actorRuntime.startReport(args.group_id, view.id),
        ...deps.actorRuntime.sessionStatus(args.group_id, view.id),
      };
      actors.push(args.include_unread ? { ...entry, unread_count: await unreadCount(deps, args.group_id, view.id) } : entry);
    }
    return { actors };
  });

  router.register('actor_add', async (args) => {
    const by = principalOf(args.by);
    const { group_id, by: _by, ...input } = args;
    const { outcome, event } = await writeGroup(
      deps,
      group_id,
      // The runtime catalog is the daemon's (pty-runtime); the groups lib refuses what it lacks.
      () => addActor(layout, by, group_id, input, { isKnownRuntime }),
      ({ actor }) => ({ kind: 'actor.add', by, data: { actor } }),
    );
    // §8.4: an enabled actor added to a running, active or idle group starts now; a paused or
    // stopped group only records it.
    const group = deps.groups.get(group_id);
    const startNow = outcome.actor.enabled !== false && group.running && (group.state === 'active' || group.state === 'idle');
    if (!startNow) return { actor: outcome.actor, event, running: false };
    // A failed start comes back as running: false with its reason (the actor stays added).
    const { result, startEvent } = await deps.actorRuntime.startChecked(group_id, outcome.actor.id, 'actor_add', { announce: true });
    const { actor_id: _id, ...report } = result;
    return { actor: outcome.actor, event, ...report, ...(startEvent ? { start_event: startEvent } : {}) };
  });

  router.register('actor_update', async (args) => {
    const by = principalOf(args.by);
    const { outcome, event } = await writeGroup(
      deps,
      args.group_id,
      () => applyActorUpdate(deps, by, args),
      ({ patch }) => ({
        kind: 'actor.update',
        by,
        data: { actor_id: args.actor_id, patch, ...(args.profile_action ? { profile_action: args.profile_action } : {}) },
      }),
    );
    return { actor: outcome.actor, event };
  });

  router.register('actor_remove', async (args) => {
    const by = principalOf(args.by);
    const { event } = await writeGroup(
      deps,
      args.group_id,
      () => removeActor(layout, by, args.group_id, args.actor_id),
      ({ actor_id }) => ({ kind: 'actor.remove', by, data: { actor_id } }),
    );
    await deps.actorRuntime.stop(args.group_id, args.actor_id);
    return { actor_id: args.actor_id, event };
  });

  router.register('actor_env_private_keys', (args) => actorPrivateEnvKeys(layout, principalOf(args.by), args.group_id, args.actor_id));

  router.register('actor_env_private_update', (args) => {
    const { set, unset, clear } = args;
    return changeGroupFiles(deps, args.group_id, () =>
      updateActorPrivateEnv(layout, principalOf(args.by), args.group_id, args.actor_id, { set, unset, clear }),
    );
  });
}

/**
 * `actor_update`: an optional conversion to a custom actor, then the patch. Linking an existing
 * actor to a profile (`profile_id`) has no domain function yet, so it is refused explicitly.
 */
async function applyActorUpdate(
  deps: ActorsOpsDeps,
  by: string,
  args: OpArgs<'actor_update'>,
): Promise<{ actor: ActorDoc; patch: Record<string, unknown> }> {
  if (args.profile_id !== undefined) {
    throw groupError('invalid_request', 'linking an existing actor to a profile is not supported yet; add the actor with profile_id', {
      field: 'profile_id',
    });
  }
  const patch = args.patch as Record<string, unknown>;
  if (Object.keys(patch).length === 0 && !args.profile_action) {
    throw groupError('invalid_patch', 'patch is empty', { field: 'patch' });
  }
  let actor: ActorDoc | undefined;
  if (args.profile_action === 'convert_to_custom') actor = await convertActorToCustom(deps.layout, by, args.group_id, args.actor_id);
  if (Object.keys(patch).length > 0) return updateActor(deps.layout, by, args.group_id, args.actor_id, patch);
  return { actor: actor!, patch: {} };
}
