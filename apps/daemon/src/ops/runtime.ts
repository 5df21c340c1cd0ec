import { principalOf } from '@cccc/groups';
import type { OpRouter } from '@cccc/ipc-protocol';
import { writeGroup } from './group-write.js';
import { replaceableActor } from './lifecycle.js';
import type { LifecycleOpsDeps } from './lifecycle.js';

export type RuntimeOpsDeps = LifecycleOpsDeps;

/**
 * §8.4 actor_new_session for native PTY actors: stop the current process if present, then start
 * a fresh session with the same settings. Input bound to the old session can never reach the
 * new one (ActorTerminal binds writes to their session); the preamble goes again.
 */
export function registerRuntimeOps(router: OpRouter, deps: RuntimeOpsDeps): void {
  router.register('actor_new_session', async (args) => {
    const by = principalOf(args.by);
    const { outcome, event } = await writeGroup(
      deps,
      args.group_id,
      () => replaceableActor(deps, by, args.group_id, args.actor_id),
      (actor) => ({ kind: 'actor.new_session', by, data: { actor_id: actor.id, runner: actor.runner ?? 'pty', runner_effective: deps.actorRuntime.plannedRunner(actor) } }),
    );
    // A new session is a fresh provider thread, never a resume of the recorded one.
    deps.actorRuntime.forgetManagedSession(args.group_id, args.actor_id);
    if (outcome.enabled !== false) await deps.actorRuntime.replace(args.group_id, args.actor_id);
    else await deps.actorRuntime.stop(args.group_id, args.actor_id);
    return { actor: outcome, event, new_session: true as const };
  });
}
