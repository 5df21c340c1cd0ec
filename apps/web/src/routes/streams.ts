import { queryBool, queryList } from '../http/body.js';
import { BY, type ApiRoutes } from './api-routes.js';
import type { SseFrame, StreamItem } from './sse-bridge.js';

/**
 * The group ledger stream and the global event stream (§8.3), and the runtime activity stream
 * (seed `pty-runtime-activity.md`): named SSE events over the daemon's streams.
 */
export function registerStreamRoutes(api: ApiRoutes): void {
  const { client } = api;

  /** `Last-Event-ID` (or `?since_event_id=`) resumes; `?kind=` / `?kinds=` names the kinds. */
  api.stream(
    'ledger_stream',
    (ctx, { group_id }) => {
      const since = header(ctx.req.headers['last-event-id']) ?? ctx.url.searchParams.get('since_event_id') ?? undefined;
      const kinds = queryList(ctx.url, 'kind', 'kinds');
      return client.openEventsStream({ group_id, by: BY, ...(since ? { since_event_id: since } : {}), ...(kinds ? { kinds } : {}) });
    },
    ledgerFrame('ledger', () => true),
  );

  api.stream(
    'events_stream',
    () => client.openGlobalEventsStream({ by: BY }),
    (item, ctx) => ledgerFrame('event', (gid) => !gid || ctx.canSeeGroup(gid))(item),
  );

  /**
   * One named `runtime-activity` event per display revision: `replay=true` (the default) first
   * restores the current view, `replay=false` starts with changes after the attach.
   */
  api.stream(
    'runtime_activity_stream',
    (ctx, { group_id }) => client.openRuntimeActivityStream({ group_id, replay: queryBool(ctx.url, 'replay') ?? true }),
    (item) => (item.t === 'runtime-activity' && 'event' in item ? { event: 'runtime-activity', data: item.event } : undefined),
  );
}

/** A ledger event item as a named frame carrying its id, when the caller may see its group. */
function ledgerFrame(eventName: string, visible: (groupId: string | undefined) => boolean) {
  return (item: StreamItem): SseFrame | undefined => {
    if (item.t !== 'event' || !isLedgerEvent(item.event)) return undefined;
    const event = item.event;
    return visible(event.group_id) ? { event: eventName, data: event, id: event.id } : undefined;
  };
}

/** Ledger events carry their id and group; a global summary may name no group. */
function isLedgerEvent(value: unknown): value is { readonly id: string; readonly group_id?: string } {
  return typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'string';
}

function header(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v && v.trim() ? v.trim() : undefined;
}
