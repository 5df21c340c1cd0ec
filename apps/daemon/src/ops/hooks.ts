import { randomBytes } from 'node:crypto';
import { findActor, utcNowIso } from '@cccc/groups';
import { activitySnapshot, commitHookEvent, parseHookPayload } from '@cccc/hook-fence';
import type { OpRouter } from '@cccc/ipc-protocol';
import type { Kernel } from '../kernel/kernel.js';
import { hookActorLockKey } from '../hooks/hook-files.js';
import { commitHookTransition } from '../hooks/hook-transition.js';
import { submittedPrompt } from '../hooks/prompt-evidence.js';
import { daemonError, DaemonErrorCodes } from '../errors.js';

const unavailable = (gid: string, detail: string) =>
  daemonError(DaemonErrorCodes.runtimeActivityUnavailable, `the runtime activity store of ${gid} is unreadable (${detail})`, { group_id: gid });

/**
 * Issue 7 extensions: `runtime_hook_event` (the daemon is the single writer of hook state and
 * runtime activity; stale or forged events are rejected and store nothing) and
 * `runtime_activity_snapshot`. Only identities and labels are ever stored.
 */
export function registerHooksOps(router: OpRouter, kernel: Kernel): void {
  router.register('runtime_hook_event', async (args) => {
    const gid = args.group_id;
    const aid = args.actor_id;
    findActor(kernel.groups.get(gid).actors, aid);
    const parsed = parseHookPayload(args.runtime, args.payload);
    if ('error' in parsed) return { accepted: false, reason: `bad_payload: ${parsed.error}` };
    const event = parsed.value;
    return kernel.groupLocks.run(hookActorLockKey(gid, aid), async () => {
      const record = await kernel.hookChannel.launchRecord(gid, aid);
      if (!record || !record.hook_enabled || record.runtime !== args.runtime) return { accepted: false, reason: 'no_hooked_launch' };
      if (record.launch_token !== args.launch_token) return { accepted: false, reason: 'launch_token_mismatch' };
      const state = await kernel.hookChannel.hookState(args.runtime, gid, aid);
      if (!state) return { accepted: false, reason: 'hook_state_unavailable' };
      const session = kernel.runtimes.get(gid, aid)?.session;
      const livePid = session && !session.exited ? session.pid : null;
      return commitHookTransition(kernel, { groupId: gid, actorId: aid, event: event.event, prompt: submittedPrompt(args.payload) }, state, (entries) =>
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
    kernel.groups.get(args.group_id);
    const store = await kernel.hookChannel.activity(args.group_id);
    if ('error' in store) throw unavailable(args.group_id, store.detail);
    return { events: activitySnapshot(store.entries, new Date()) };
  });
}
