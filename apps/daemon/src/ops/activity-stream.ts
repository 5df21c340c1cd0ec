import { StreamUpgrade, type OpRouter } from '@cccc/ipc-protocol';
import { activityLockKey } from '../hooks/hook-files.js';
import type { HookChannel } from '../hooks/hook-channel.js';
import { ActivitySession } from '../streams/activity-session.js';
import type { StoreDeps } from '../kernel/store-deps.js';
import type { ActivityHub } from '../streams/activity-hub.js';
import type { StreamTuning } from '../config.js';

export type ActivityStreamOpsDeps = Pick<StoreDeps, 'groups' | 'groupLocks'> & {
  readonly hookChannel: Pick<HookChannel, 'activity'>;
  readonly activity: ActivityHub;
  readonly streamTuning: StreamTuning;
};

/**
 * runtime_activity_stream (issue 7/8 extension): snapshot records first (`replay`, default
 * true), then every display revision the hook commit path writes. Reading the initial store and
 * subscribing happen under the group's activity lock, the lock the commit path holds while it
 * writes and publishes, so a revision is never lost or sent twice between replay and live.
 */
export function registerActivityStreamOps(router: OpRouter, deps: ActivityStreamOpsDeps): void {
  router.register('runtime_activity_stream', async (args) => {
    const gid = args.group_id;
    deps.groups.get(gid);
    const replay = args.replay ?? true;
    const tuning = deps.streamTuning;
    const session = await deps.groupLocks.run(activityLockKey(gid), async () => {
      const store = await deps.hookChannel.activity(gid);
      // A corrupt store: no replay and an empty view; the stream waits for a valid revision.
      let remove = () => {};
      const s = new ActivitySession('error' in store ? null : store.entries, replay, {
        heartbeatMs: tuning.heartbeatMs,
        maxPendingBytes: tuning.maxPendingBytes,
        stuckAfterMs: tuning.activityStuckMs,
        onEnd: () => remove(),
      });
      remove = deps.activity.add(gid, s);
      return s;
    });
    return new StreamUpgrade({ group_id: gid, replay }, (connection) => session.attach(connection));
  });
}
