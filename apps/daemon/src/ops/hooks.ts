import { randomBytes } from 'node:crypto';
import { findActor, utcNowIso } from '@cccc/groups';
import { activitySnapshot, commitHookEvent, parseHookPayload } from '@cccc/hook-fence';
import type { OpRouter } from '@cccc/ipc-protocol';
import { hookActorLockKey } from '../hooks/hook-files.js';
import { commitHookTransition } from '../hooks/hook-transition.js';
import { daemonError, DaemonErrorCodes } from '../errors.js';
import type { StoreDeps } from '../kernel/store-deps.js';
import type { HookDeps } from '../hooks/hook-deps.js';
import type { RuntimeRegistry } from '../runtime/runtime-registry.js';
import type { StreamTuning } from '../config.js';

const unavailable = (gid: string, detail: string) =>
  daemonError(DaemonErrorCodes.runtimeActivityUnavailable, `the runtime activity store of ${gid} is unreadable (${detail})`, { group_id: gid });

export type HooksOpsDeps = Pick<StoreDeps, 'layout' | 'groups'> & HookDeps & {
  readonly runtimes: RuntimeRegistry;
  readonly streamTuning: Pick<StreamTuning, 'activityStuckMs'>;
};

/**
 * Issue 7 extensions: `runtime_hook_event` (the daemon is the single writer of hook state and
 * runtime activity; stale or forged events are rejected and store nothing) and
 * `runtime_activity_snapshot`. Only identities and labels are ever stored.
 */
export function registerHooksOps(router: OpRouter, deps: HooksOpsDeps): void {
  router.register('runtime_hook_event', async (args) => {
    const gid = args.group_id;
    const aid = args.actor_id;
    findActor(deps.groups.get(gid).actors, aid);
    const parsed = parseHookPayload(args.runtime, args.payload);
    if ('error' in parsed) return { accepted: false, reason: `bad_payload: ${parsed.error}` };
    const event = parsed.value;
    return deps.groupLocks.run(hookActorLockKey(gid, aid), async () => {
      const record = await deps.hookChannel.launchRecord(gid, aid);
      if (!record || !record.hook_enabled || record.runtime !== args.runtime) return { accepted: false, reason: 'no_hooked_launch' };
      if (record.launch_token !== args.launch_token) return { accepted: false, reason: 'launch_token_mismatch' };
      const state = await deps.hookChannel.hookState(args.runtime, gid, aid);
      if (!state) return { accepted: false, reason: 'hook_state_unavailable' };
      const session = deps.runtimes.get(gid, aid)?.session;
      const livePid = session && !session.exited ? session.pid : null;
      const ids = { groupId: gid, actorId: aid, event: event.event, marks: args.payload.prompt_marks ?? null, firedAtMs: args.fired_at_ms ?? null };
      return commitHookTransition(deps, ids, state, (entries) =>
        commitHookEvent({
          state,
          entries,
          event,
          ctx: { launchToken: args.launch_token, launchPid: record.pid, livePid, now: utcNowIso() },
          now: new Date(),
          newId: () => randomBytes(16).toString('hex'),
        }),
      );
    });
  });

  router.register('runtime_activity_snapshot', async (args) => {
    deps.groups.get(args.group_id);
    const store = await deps.hookChannel.activity(args.group_id);
    if ('error' in store) throw unavailable(args.group_id, store.detail);
    return { events: activitySnapshot(store.entries, new Date(), deps.streamTuning.activityStuckMs) };
  });
}
