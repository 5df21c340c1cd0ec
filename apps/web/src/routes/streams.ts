import type { EventStream } from '@cccc/ipc-protocol/node';
import { Router } from '../http/router.js';
import { DEFAULT_SSE_HEARTBEAT_MS, SseClient } from '../sse/sse.js';
import type { RouteDeps } from './deps.js';

/** Returned by handlers that wrote the response themselves (streams). */
export const RESPONDED = Symbol('responded');

/** One SSE frame made from a daemon stream item; undefined skips the item. */
export type SseFrame = { readonly event: string; readonly data: unknown; readonly id?: string };

/**
 * Pump a daemon stream into one SSE client: `toFrame` names the frames, a daemon error item
 * becomes an `error` frame and ends the stream, daemon heartbeats stay behind (the SSE client
 * has its own). The daemon stream is opened before the SSE headers so a refusal
 * (group_not_found, ...) still gets the JSON envelope and its status.
 */
export function bridge(
  stream: EventStream,
  sse: SseClient,
  toFrame: (item: { t: string; [k: string]: unknown }) => SseFrame | undefined,
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
        if (sse.isClosed || !admitted()) break;
        if (item.t === 'error' && 'code' in item) {
          sse.send('error', { code: item.code, message: (item as { message?: string }).message ?? '' });
          break;
        }
        const frame = toFrame(item as { t: string; [k: string]: unknown });
        if (frame) sse.send(frame.event, frame.data, frame.id);
      }
    } catch {
      // The daemon side ended; the client reconnects (Last-Event-ID, or a replay).
    } finally {
      sse.close('server');
    }
  })();
}

/** A ledger event item as a named frame carrying its id, when the caller may see its group. */
function ledgerFrame(eventName: string, visible: (groupId: string) => boolean) {
  return (item: { t: string; [k: string]: unknown }): SseFrame | undefined => {
    if (item.t !== 'event' || !('event' in item)) return undefined;
    const event = item.event as { id: string; group_id: string };
    return visible(event.group_id) ? { event: eventName, data: event, id: event.id } : undefined;
  };
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
    bridge(stream, new SseClient(ctx.res, options), ledgerFrame('ledger', () => true), () => ctx.stillAdmitted(gid), recheckMs);
    return RESPONDED;
  });

  r.get('/events/stream', async (ctx) => {
    const stream = await client.openGlobalEventsStream({ by: 'user' });
    bridge(stream, new SseClient(ctx.res, options), ledgerFrame('event', (gid) => !gid || ctx.canSeeGroup(gid)), () => ctx.stillAdmitted(), recheckMs);
    return RESPONDED;
  });
  return r;
}

function header(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v && v.trim() ? v.trim() : undefined;
}
