import { principalOf } from '@cccc/groups';
import { ErrorCodes, IpcError, StreamUpgrade, type CCCSEventV1, type OpRouter } from '@cccc/ipc-protocol';
import { actorViewFilter, kindFilter } from '../streams/event-filter.js';
import { StreamSession, type EventSource } from '../streams/stream-session.js';
import { LedgerErrorCodes } from '@cccc/ledger';
import type { StoreDeps } from '../kernel/store-deps.js';
import type { GlobalFeed } from '../kernel/global-feed.js';
import type { StreamHub } from '../streams/stream-hub.js';
import type { StreamTuning } from '../config.js';

export type StreamOpsDeps = Pick<StoreDeps, 'groups' | 'ledgers'> & {
  readonly streams: StreamHub;
  readonly globalFeed: GlobalFeed;
  readonly streamTuning: StreamTuning;
};

/** §8.15 events_stream and the global change stream, as NDJSON upgrades. */
export function registerStreamOps(router: OpRouter, deps: StreamOpsDeps): void {
  const tuning = deps.streamTuning;
  const start = (hubKey: string, source: EventSource, accept: (e: CCCSEventV1) => boolean) => (connection: Parameters<StreamUpgrade['start']>[0]) => {
    let remove = () => {};
    const session = new StreamSession(connection, source, {
      accept,
      heartbeatMs: tuning.heartbeatMs,
      maxPendingBytes: tuning.maxPendingBytes,
      onEnd: () => remove(),
    });
    remove = deps.streams.add(hubKey, session);
    session.pump();
  };

  router.register('events_stream', async (args) => {
    const group = deps.groups.get(args.group_id);
    const store = await deps.ledgers.get(args.group_id);
    const by = principalOf(args.by);
    const viewer = args.actor_id?.trim() || (group.actors.some((a) => a.id === by) ? by : undefined);
    if (viewer && !group.actors.some((a) => a.id === viewer)) {
      throw new IpcError(ErrorCodes.actorNotFound, `no actor ${viewer} in this group`, { actor_id: viewer });
    }
    const sinceId = args.since_event_id?.trim();
    if (sinceId && !store.findById(sinceId)) {
      throw new IpcError(LedgerErrorCodes.eventNotFound, `since_event_id ${sinceId} is not in this ledger; reconcile with inbox_peek`, {
        field: 'since_event_id',
      });
    }
    const sinceTs = !sinceId && args.since_ts ? args.since_ts : undefined;
    const follower = sinceId ? store.follow({ afterEventId: sinceId }) : store.follow({ fromStart: Boolean(sinceTs) });
    const byKind = kindFilter(args.kinds);
    const byActor = viewer ? actorViewFilter(viewer, () => deps.groups.get(args.group_id)) : () => true;
    const accept = (e: CCCSEventV1) => (!sinceTs || e.ts > sinceTs) && byKind(e) && byActor(e);
    return new StreamUpgrade({ group_id: args.group_id }, start(args.group_id, follower, accept));
  });

  router.register('global_events_stream', (args) => {
    const allow = args.kinds && args.kinds.length > 0 ? new Set(args.kinds) : undefined;
    const accept = (e: CCCSEventV1) => !allow || allow.has(e.kind);
    return new StreamUpgrade({}, start('*', deps.globalFeed.follow(), accept));
  });
}
