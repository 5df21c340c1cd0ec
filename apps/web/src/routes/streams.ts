import type { EventStream } from '@cccc/ipc-protocol/node';
import { Router } from '../http/router.js';
import { DEFAULT_SSE_HEARTBEAT_MS, SseClient } from '../sse/sse.js';
import type { RouteDeps } from './deps.js';

/** Returned by handlers that wrote the response themselves (streams). */
export const RESPONDED = Symbol('responded');

/**
 * Pump a daemon event stream into one SSE client. The daemon stream is opened before the SSE
 * headers so a refusal (group_not_found, ...) still gets the JSON envelope and its status.
 */
function bridge(
  stream: EventStream,
  sse: SseClient,
  eventName: string,
  visible: (groupId: string) => boolean,
  admitted: () => boolean,
  recheckMs: number,
): void {
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
        if (sse.isClosed) break;
        if (!admitted()) break;
        if (item.t === 'event' && 'event' in item) {
          const event = item.event as { id: string; group_id: string };
          if (!visible(event.group_id)) continue;
          sse.send(eventName, event, event.id);
        } else if (item.t === 'error' && 'code' in item) {
          sse.send('error', { code: item.code, message: (item as { message?: string }).message ?? '' });
          break;
        }
        // Daemon heartbeats are not forwarded: the SSE client has its own.
      }
    } catch {
      // The daemon side ended; the client reconnects with Last-Event-ID.
    } finally {
      sse.close('server');
    }
  })();
}

/** The group ledger stream and the global event stream (§8.3). */
export function streamRoutes({ client, sse: options }: RouteDeps): Router {
  const r = new Router('/api/v1');
  const recheckMs = options.heartbeatMs ?? DEFAULT_SSE_HEARTBEAT_MS;

  r.get('/groups/:gid/ledger/stream', async (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const lastEventId = header(ctx.req.headers['last-event-id']) ?? ctx.url.searchParams.get('since_event_id') ?? undefined;
    const kinds = ctx.url.searchParams.getAll('kind').flatMap((k) => k.split(',')).filter(Boolean);
    const stream = await client.openEventsStream({
      group_id: gid,
      by: 'user',
      ...(lastEventId ? { since_event_id: lastEventId } : {}),
      ...(kinds.length > 0 ? { kinds } : {}),
    });
    bridge(stream, new SseClient(ctx.res, options), 'ledger', () => true, () => ctx.stillAdmitted(gid), recheckMs);
    return RESPONDED;
  });

  r.get('/events/stream', async (ctx) => {
    const stream = await client.openGlobalEventsStream({ by: 'user' });
    bridge(stream, new SseClient(ctx.res, options), 'event', (gid) => !gid || ctx.canSeeGroup(gid), () => ctx.stillAdmitted(), recheckMs);
    return RESPONDED;
  });
  return r;
}

function header(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v && v.trim() ? v.trim() : undefined;
}
