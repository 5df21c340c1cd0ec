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
import { writeGroup } from './group-write.js';
import { principalOf } from './principal.js';

/** Actors whose desired state is "run" (visible or internal): the ones group_start/stop act on. */
const enabledIds = (actors: readonly ActorDoc[]) => actors.filter((a) => a.enabled !== false).map((a) => a.id);

/** Lifecycle event data as the reference writes it; nothing runs yet, so no effective runner. */
const actorEventData = (actor: ActorDoc) => ({ actor_id: actor.id, runner: actor.runner ?? 'pty', runner_effective: null });

/**
 * §8.3 group_start/group_stop and §8.4 actor_start/stop/restart. Until the PTY work lands these
 * only record desired state (group.yaml `running`/`state`, actor `enabled`) and append their
 * event; no process is started or stopped.
 */
export function registerLifecycleOps(router: OpRouter, kernel: Kernel): void {
  const { layout } = kernel;

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
    return { group_id: args.group_id, stopped: outcome, event };
  });

  router.register('actor_start', async (args) => {
    const by = principalOf(args.by);
    const { outcome, event } = await writeGroup(
      kernel,
      args.group_id,
      () => setActorEnabled(layout, by, args.group_id, args.actor_id, true),
      (actor) => ({ kind: 'actor.start', by, data: actorEventData(actor) }),
    );
    return { actor: outcome, event };
  });

  router.register('actor_stop', async (args) => {
    const by = principalOf(args.by);
    const { outcome, event } = await writeGroup(
      kernel,
      args.group_id,
      () => setActorEnabled(layout, by, args.group_id, args.actor_id, false),
      (actor) => ({ kind: 'actor.stop', by, data: actorEventData(actor) }),
    );
    return { actor: outcome, event };
  });

  // Restart applies saved configuration to a running session; its desired state is unchanged.
  router.register('actor_restart', async (args) => {
    const by = principalOf(args.by);
    const { outcome, event } = await writeGroup(
      kernel,
      args.group_id,
      () => {
        authorizeGroupAction(layout, by, 'actor.restart', args.group_id, { targetActorId: args.actor_id });
        return findActor(loadGroup(layout, args.group_id).actors, args.actor_id);
      },
      (actor) => ({ kind: 'actor.restart', by, data: actorEventData(actor) }),
    );
    return { actor: outcome, event };
  });
}
