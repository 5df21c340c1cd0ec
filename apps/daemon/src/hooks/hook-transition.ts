import type { ActivityEntry, HookState } from '@cccc/hook-fence';
import type { HookDeps } from './hook-deps.js';
import { activityLockKey } from './hook-files.js';

export type HookTransition =
  | { readonly accepted: true; readonly state: HookState; readonly entries: readonly ActivityEntry[] }
  | { readonly accepted: false; readonly reason: string; readonly state: HookState };

/**
 * One change of an actor's hook state and its group's runtime activity, as one step: the caller
 * holds the actor's hook lock; this takes the group's activity lock, takes the store from the
 * hook channel (a corrupt one rejects the change), and writes activity then state through it. An accepted change re-derives the
 * actor's working state and publishes the revisions, still under the lock, so subscribers see
 * them in commit order. A rejected change stores nothing but a state the fence itself changed
 * (an exhausted fence stays closed).
 */
export function commitHookTransition(
  deps: HookDeps,
  ids: { groupId: string; actorId: string; event: string; marks?: readonly string[] | null; firedAtMs?: number | null },
  before: HookState,
  transition: (entries: readonly ActivityEntry[]) => HookTransition,
): Promise<{ accepted: boolean; reason?: string }> {
  const { groupId, actorId, event } = ids;
  return deps.groupLocks.run(activityLockKey(groupId), async () => {
    const channel = deps.hookChannel;
    const store = await channel.activity(groupId);
    if ('error' in store) return { accepted: false, reason: 'runtime_activity_unavailable' };
    const change = transition(store.entries);
    if (!change.accepted) {
      if (change.state !== before) await channel.writeHookState(change.state);
      return { accepted: false, reason: change.reason };
    }
    await channel.writeActivity(groupId, change.entries);
    await channel.writeHookState(change.state);
    deps.hookAccepted({ groupId, actorId, runtime: change.state.runtime, event, marks: ids.marks ?? null, firedAtMs: ids.firedAtMs ?? null });
    deps.activity.publish(groupId, change.entries);
    return { accepted: true };
  });
}
