import {
  authorizeGroupAction,
  findActor,
  loadGroup,
  principalOf,
  setActorEnabled,
  setGroupRunning,
  setGroupState,
  type ActorDoc,
} from '@cccc/groups';
import { IpcError, type OpRouter } from '@cccc/ipc-protocol';
import type { CheckedStart } from '../runtime/actor-runtime-service.js';
import { writeGroup } from './group-write.js';
import { daemonError, DaemonErrorCodes } from '../errors.js';
import type { StoreDeps } from '../kernel/store-deps.js';
import type { ActorRuntimeService } from '../runtime/actor-runtime-service.js';

/** Actors whose desired state is "run" (visible or internal): the ones group_start/stop act on. */
const enabledIds = (actors: readonly ActorDoc[]) => actors.filter((a) => a.enabled !== false).map((a) => a.id);

/** Lifecycle event data as the reference writes it (native PTY actors only, for now). */
const actorEventData = (actor: ActorDoc, running: boolean, runnerEffective: string | null = running ? 'pty' : null) => ({
  actor_id: actor.id,
  runner: actor.runner ?? 'pty',
  runner_effective: runnerEffective,
});

export type LifecycleOpsDeps = StoreDeps & {
  readonly actorRuntime: ActorRuntimeService;
};

/**
 * §8.3 group_start/group_stop and §8.4 actor_start/stop/restart: desired state first (group.yaml
 * `running`/`state`, actor `enabled`, with their event), then the processes are made to match.
 * Launch problems of an explicit start (no scope) are refused before anything is written.
 */
export function registerLifecycleOps(router: OpRouter, deps: LifecycleOpsDeps): void {
  const { layout, actorRuntime } = deps;

  /** group_start tolerates actors that cannot run (reported per actor); the group still resumes. */
  const startEach = (groupId: string, ids: readonly string[]) =>
    Promise.all(ids.map(async (id) => (await actorRuntime.startChecked(groupId, id, 'group_start')).result));

  router.register('group_start', async (args) => {
    const by = principalOf(args.by);
    const { outcome, event } = await writeGroup(
      deps,
      args.group_id,
      async () => {
        const { group } = authorizeGroupAction(layout, by, 'group.start', args.group_id);
        await setGroupRunning(layout, args.group_id, true);
        if (group.state !== 'active') await setGroupState(layout, args.group_id, 'active');
        return enabledIds(group.actors);
      },
      (started) => ({ kind: 'group.start', by, data: { started } }),
    );
    const startResults = await startEach(args.group_id, outcome);
    const failed = startResults.filter((r) => !r.running).map((r) => r.actor_id);
    return { group_id: args.group_id, started: outcome, event, start_results: startResults, failed };
  });

  // A group-level suspension: every actor keeps its desired enabled state.
  router.register('group_stop', async (args) => {
    const by = principalOf(args.by);
    const { outcome, event } = await writeGroup(
      deps,
      args.group_id,
      async () => {
        const { group } = authorizeGroupAction(layout, by, 'group.stop', args.group_id);
        await setGroupRunning(layout, args.group_id, false);
        return group.running ? enabledIds(group.actors) : [];
      },
      (stopped) => ({ kind: 'group.stop', by, data: { stopped } }),
    );
    await actorRuntime.stopGroup(args.group_id);
    return { group_id: args.group_id, stopped: outcome, event };
  });

  router.register('actor_start', async (args) => {
    const by = principalOf(args.by);
    const { outcome, event } = await writeGroup(
      deps,
      args.group_id,
      async () => {
        authorizeGroupAction(layout, by, 'actor.start', args.group_id, { targetActorId: args.actor_id });
        actorRuntime.checkLaunchable(args.group_id, args.actor_id);
        const actor = await setActorEnabled(layout, by, args.group_id, args.actor_id, true);
        // An explicit start runs the actor now, so its group runs (and its work is delivered).
        await setGroupRunning(layout, args.group_id, true);
        return actor;
      },
      (actor) => ({ kind: 'actor.start', by, data: actorEventData(actor, true, actorRuntime.plannedRunner(actor)) }),
    );
    const { result } = throwIfNotRunning(await actorRuntime.startChecked(args.group_id, args.actor_id, 'actor_start'));
    return { actor: outcome, event, running: true, ...(result.start_warning ? { start_warning: result.start_warning } : {}) };
  });

  router.register('actor_stop', async (args) => {
    const by = principalOf(args.by);
    const { outcome, event } = await writeGroup(
      deps,
      args.group_id,
      () => setActorEnabled(layout, by, args.group_id, args.actor_id, false),
      (actor) => ({ kind: 'actor.stop', by, data: actorEventData(actor, false) }),
    );
    await actorRuntime.stop(args.group_id, args.actor_id);
    return { actor: outcome, event };
  });

  // Restart applies saved configuration; its desired state is unchanged (a disabled actor stays stopped).
  router.register('actor_restart', async (args) => {
    const by = principalOf(args.by);
    const { outcome, event } = await writeGroup(
      deps,
      args.group_id,
      () => replaceableActor(deps, by, args.group_id, args.actor_id),
      (actor) => ({ kind: 'actor.restart', by, data: actorEventData(actor, actor.enabled !== false, actor.enabled !== false ? actorRuntime.plannedRunner(actor) : null) }),
    );
    if (outcome.enabled === false) {
      await actorRuntime.stop(args.group_id, args.actor_id);
      return { actor: outcome, event, running: false };
    }
    const { result } = throwIfNotRunning(await actorRuntime.startChecked(args.group_id, args.actor_id, 'actor_restart', { replace: true }));
    return { actor: outcome, event, running: true, ...(result.start_warning ? { start_warning: result.start_warning } : {}) };
  });
}

/**
 * An explicit start that did not run fails the op (as the reference's `actor_start_failed` does)
 * after its desired state was recorded: the launch error as thrown, or `runtime_start_failed`
 * for an early exit, each with `details.start_failure`.
 */
function throwIfNotRunning(checked: CheckedStart): CheckedStart {
  const { result, error } = checked;
  if (result.running) return checked;
  const failure = result.start_failure;
  if (error instanceof IpcError) throw new IpcError(error.code, error.message, { ...error.details, start_failure: failure });
  throw daemonError(DaemonErrorCodes.runtimeStartFailed, `${result.actor_id} did not start: ${failure?.message ?? 'it stopped'}`, {
    actor_id: result.actor_id,
    reason: failure?.code ?? 'stopped',
    ...(failure ? { start_failure: failure } : {}),
  });
}

/** actor_restart / actor_new_session: authorized, existing, and launchable when it should run. */
export function replaceableActor(deps: LifecycleOpsDeps, by: string, groupId: string, actorId: string): ActorDoc {
  authorizeGroupAction(deps.layout, by, 'actor.restart', groupId, { targetActorId: actorId });
  const actor = findActor(loadGroup(deps.layout, groupId).actors, actorId);
  if (actor.enabled !== false) deps.actorRuntime.checkLaunchable(groupId, actorId);
  return actor;
}
