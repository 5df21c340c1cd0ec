import {
  authorizeGroupAction,
  findActor,
  loadGroup,
  setActorEnabled,
  setGroupRunning,
  setGroupState,
  type ActorDoc,
} from '@cccc/groups';
import type { OpRouter } from '@cccc/ipc-protocol';
import type { Kernel } from '../kernel/kernel.js';
import { errorFields } from '../log.js';
import { writeGroup } from './group-write.js';
import { principalOf } from './principal.js';

/** Actors whose desired state is "run" (visible or internal): the ones group_start/stop act on. */
const enabledIds = (actors: readonly ActorDoc[]) => actors.filter((a) => a.enabled !== false).map((a) => a.id);

/** Lifecycle event data as the reference writes it (native PTY actors only, for now). */
const actorEventData = (actor: ActorDoc, running: boolean) => ({ actor_id: actor.id, runner: actor.runner ?? 'pty', runner_effective: running ? 'pty' : null });

/**
 * §8.3 group_start/group_stop and §8.4 actor_start/stop/restart: desired state first (group.yaml
 * `running`/`state`, actor `enabled`, with their event), then the processes are made to match.
 * Launch problems of an explicit start (no scope) are refused before anything is written.
 */
export function registerLifecycleOps(router: OpRouter, kernel: Kernel): void {
  const { layout, actorRuntime } = kernel;

  /** group_start tolerates actors that cannot run (logged); the group still resumes. */
  const startEach = async (groupId: string, ids: readonly string[]) => {
    for (const id of ids) {
      try {
        await actorRuntime.start(groupId, id);
      } catch (error) {
        kernel.logger.log('warn', 'group_start: actor could not be started', { group_id: groupId, actor_id: id, ...errorFields(error) });
      }
    }
  };

  router.register('group_start', async (args) => {
    const by = principalOf(args.by);
    const { outcome, event } = await writeGroup(
      kernel,
      args.group_id,
      async () => {
        const { group } = authorizeGroupAction(layout, by, 'group.start', args.group_id);
        await setGroupRunning(layout, args.group_id, true);
        if (group.state !== 'active') await setGroupState(layout, args.group_id, 'active');
        return enabledIds(group.actors);
      },
      (started) => ({ kind: 'group.start', by, data: { started } }),
    );
    await startEach(args.group_id, outcome);
    return { group_id: args.group_id, started: outcome, event };
  });

  // A group-level suspension: every actor keeps its desired enabled state.
  router.register('group_stop', async (args) => {
    const by = principalOf(args.by);
    const { outcome, event } = await writeGroup(
      kernel,
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
      kernel,
      args.group_id,
      async () => {
        authorizeGroupAction(layout, by, 'actor.start', args.group_id, { targetActorId: args.actor_id });
        actorRuntime.checkLaunchable(args.group_id, args.actor_id);
        const actor = await setActorEnabled(layout, by, args.group_id, args.actor_id, true);
        // An explicit start runs the actor now, so its group runs (and its work is delivered).
        await setGroupRunning(layout, args.group_id, true);
        return actor;
      },
      (actor) => ({ kind: 'actor.start', by, data: actorEventData(actor, true) }),
    );
    await actorRuntime.start(args.group_id, args.actor_id);
    return { actor: outcome, event };
  });

  router.register('actor_stop', async (args) => {
    const by = principalOf(args.by);
    const { outcome, event } = await writeGroup(
      kernel,
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
      kernel,
      args.group_id,
      () => replaceableActor(kernel, by, args.group_id, args.actor_id),
      (actor) => ({ kind: 'actor.restart', by, data: actorEventData(actor, actor.enabled !== false) }),
    );
    if (outcome.enabled !== false) await actorRuntime.replace(args.group_id, args.actor_id);
    else await actorRuntime.stop(args.group_id, args.actor_id);
    return { actor: outcome, event };
  });
}

/** actor_restart / actor_new_session: authorized, existing, and launchable when it should run. */
export function replaceableActor(kernel: Kernel, by: string, groupId: string, actorId: string): ActorDoc {
  authorizeGroupAction(kernel.layout, by, 'actor.restart', groupId, { targetActorId: actorId });
  const actor = findActor(loadGroup(kernel.layout, groupId).actors, actorId);
  if (actor.enabled !== false) kernel.actorRuntime.checkLaunchable(groupId, actorId);
  return actor;
}
