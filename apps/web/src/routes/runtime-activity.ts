import type { EventStream } from '@cccc/ipc-protocol/node';
import { queryBool } from '../http/body.js';
import { Router } from '../http/router.js';
import { DEFAULT_SSE_HEARTBEAT_MS, SseClient } from '../sse/sse.js';
import type { RouteDeps } from './deps.js';
import { RESPONDED } from './streams.js';

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
    pump(stream, new SseClient(ctx.res, options), () => ctx.stillAdmitted(gid), recheckMs);
    return RESPONDED;
  });
  return r;
}

function pump(stream: EventStream, sse: SseClient, admitted: () => boolean, recheckMs: number): void {
  // A revoked token ends the stream at the next check (at most one heartbeat interval).
  const recheck = setInterval(() => {
    if (!admitted()) sse.close('server');
  }, recheckMs);
  recheck.unref();
  sse.onClose(() => {
    clearInterval(recheck);
    stream.close();
  });
  void (async () => {
    try {
      for await (const item of stream) {
        if (sse.isClosed || !admitted()) break;
        if (item.t === 'runtime-activity' && 'event' in item) sse.send('runtime-activity', item.event);
        else if (item.t === 'error' && 'code' in item) {
          sse.send('error', { code: item.code, message: (item as { message?: string }).message ?? '' });
          break;
        }
        // Daemon heartbeats are not forwarded: the SSE client has its own.
      }
    } catch {
      // The daemon side ended; the browser reconnects and replays.
    } finally {
      sse.close('server');
    }
  })();
}
