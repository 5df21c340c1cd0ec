import { queryBool } from '../http/body.js';
import { Router } from '../http/router.js';
import { DEFAULT_SSE_HEARTBEAT_MS, SseClient } from '../sse/sse.js';
import type { RouteDeps } from './deps.js';
import { RESPONDED, bridge, type SseFrame } from './streams.js';

/**
 * The runtime activity HTTP contract (seed `pty-runtime-activity.md`): the snapshot as
 * `{ok, result: {events}}` (a corrupt store answers `runtime_activity_unavailable`, never a
 * partial view), and an SSE stream of named `runtime-activity` events over the daemon's
 * `runtime_activity_stream`: `replay=true` (default) first restores the current view,
 * `replay=false` starts with changes after the attach.
 */
export function runtimeActivityRoutes({ client, sse: options }: RouteDeps): Router {
  const r = new Router('/api/v1/groups/:gid/runtime-activity');
  const recheckMs = options.heartbeatMs ?? DEFAULT_SSE_HEARTBEAT_MS;

  r.get('/snapshot', (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    return client.call('runtime_activity_snapshot', { group_id: gid });
  });

  r.get('/stream', async (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const replay = queryBool(ctx.url, 'replay') ?? true;
    // Opened before the SSE headers so a refusal still gets the JSON envelope and its status.
    const stream = await client.openRuntimeActivityStream({ group_id: gid, replay });
    bridge(stream, new SseClient(ctx.res, options), activityFrame, () => ctx.stillAdmitted(gid), recheckMs);
    return RESPONDED;
  });
  return r;
}

/** A runtime activity record as a named `runtime-activity` frame (the seed's SSE contract). */
function activityFrame(item: { t: string; [k: string]: unknown }): SseFrame | undefined {
  return item.t === 'runtime-activity' && 'event' in item ? { event: 'runtime-activity', data: item.event } : undefined;
}
