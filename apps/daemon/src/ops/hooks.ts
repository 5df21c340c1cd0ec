import { randomBytes } from 'node:crypto';
import { findActor, utcNowIso } from '@cccc/groups';
import { activitySnapshot, commitHookEvent, parseHookPayload } from '@cccc/hook-fence';
import { IpcError, type OpRouter } from '@cccc/ipc-protocol';
import type { Kernel } from '../kernel/kernel.js';
import { activityLockKey, hookActorLockKey, readActivityStore, readHookState, readLaunchRecord, writeActivityStore, writeHookState } from '../hooks/hook-files.js';
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
      const record = await readLaunchRecord(kernel.layout, gid, aid);
      if (!record || !record.hook_enabled || record.runtime !== args.runtime) return { accepted: false, reason: 'no_hooked_launch' };
      if (record.launch_token !== args.launch_token) return { accepted: false, reason: 'launch_token_mismatch' };
      const state = await readHookState(kernel.layout, args.runtime, gid, aid);
      if (!state) return { accepted: false, reason: 'hook_state_unavailable' };
      const session = kernel.runtimes.get(gid, aid)?.session;
      const livePid = session && !session.exited ? session.pid : null;
      return kernel.groupLocks.run(activityLockKey(gid), async () => {
        const store = await readActivityStore(kernel.layout, gid);
        if ('error' in store) return { accepted: false, reason: 'runtime_activity_unavailable' };
        const now = new Date();
        const commit = commitHookEvent({
          state,
          entries: store.entries,
          event,
          ctx: { launchToken: args.launch_token, launchPid: record.pid, livePid, now: utcNowIso() },
          now,
          newId: () => randomBytes(16).toString('hex'),
        });
        if (!commit.accepted) {
          // An exhausted fence is itself recorded so it stays closed; nothing else is stored.
          if (commit.state !== state) await writeHookState(kernel.layout, commit.state);
          return { accepted: false, reason: commit.reason };
        }
        await writeActivityStore(kernel.layout, gid, commit.entries);
        await writeHookState(kernel.layout, commit.state);
        kernel.hookAccepted(gid, aid, args.runtime, event.event);
        // Still under the activity lock: subscribers see revisions in commit order.
        kernel.activity.publish(gid, commit.entries);
        return { accepted: true };
      });
    });
  });

  router.register('runtime_activity_snapshot', async (args) => {
    kernel.groups.get(args.group_id);
    const store = await readActivityStore(kernel.layout, args.group_id);
    if ('error' in store) throw unavailable(args.group_id, store.detail);
    return { events: activitySnapshot(store.entries, new Date()) };
  });
}
