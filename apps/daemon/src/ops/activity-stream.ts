import { StreamUpgrade, type OpRouter } from '@cccc/ipc-protocol';
import { activityLockKey } from '../hooks/hook-files.js';
import type { Kernel } from '../kernel/kernel.js';
import { ActivitySession } from '../streams/activity-session.js';

/**
 * runtime_activity_stream (issue 7/8 extension): snapshot records first (`replay`, default
 * true), then every display revision the hook commit path writes. Reading the initial store and
 * subscribing happen under the group's activity lock, the lock the commit path holds while it
 * writes and publishes, so a revision is never lost or sent twice between replay and live.
 */
export function registerActivityStreamOps(router: OpRouter, kernel: Kernel): void {
  router.register('runtime_activity_stream', async (args) => {
    const gid = args.group_id;
    kernel.groups.get(gid);
    const replay = args.replay ?? true;
    const tuning = kernel.streamTuning;
    const session = await kernel.groupLocks.run(activityLockKey(gid), async () => {
      const store = await kernel.hookChannel.activity(gid);
      // A corrupt store: no replay and an empty view; the stream waits for a valid revision.
      let remove = () => {};
      const s = new ActivitySession('error' in store ? null : store.entries, replay, {
        heartbeatMs: tuning.heartbeatMs,
        maxPendingBytes: tuning.maxPendingBytes,
        onEnd: () => remove(),
      });
      remove = kernel.activity.add(gid, s);
      return s;
    });
    return new StreamUpgrade({ group_id: gid, replay }, (connection) => session.attach(connection));
  });
}
