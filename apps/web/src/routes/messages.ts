import { z } from 'zod';
import { parseJsonBody, queryBool, queryInt, queryList } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { Router } from '../http/router.js';
import { BY, type RouteDeps } from './deps.js';

const SendBody = z.looseObject({ text: z.string(), message_mode: z.string().optional() });
const ReplyBody = z.looseObject({ reply_to: z.string().min(1), text: z.string() });
const StatusesBody = z.object({ event_ids: z.array(z.string().min(1)).min(1) });
const CrossGroupBody = z.looseObject({ dst_group_id: z.string().min(1), text: z.string() });
const TrackedSendBody = z.looseObject({ title: z.string(), text: z.string() });
const DeliverBody = z.object({ actor_ids: z.array(z.string().min(1)).min(1), force_ambiguous: z.boolean().optional() });

function withoutIdentity<T extends Record<string, unknown>>(body: T): Omit<T, 'group_id' | 'by'> {
  const { group_id: _g, by: _b, ...rest } = body;
  return rest;
}

/** Messaging, inbox, ledger reads and the terminal tail (§8.2 "Messaging", "Ledger"). */
export function messageRoutes({ client }: RouteDeps): Router {
  const r = new Router('/api/v1/groups/:gid');

  r.post('/send', async (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const body = withoutIdentity(await parseJsonBody(ctx.req, SendBody));
    return client.call('send', { message_mode: 'send', ...body, group_id: gid, by: BY } as never);
  });
  r.post('/reply', async (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const body = withoutIdentity(await parseJsonBody(ctx.req, ReplyBody));
    return client.call('reply', { ...body, group_id: gid, by: BY } as never);
  });

  /** The caller must reach both groups. */
  r.post('/send_cross_group', async (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const body = withoutIdentity(await parseJsonBody(ctx.req, CrossGroupBody));
    ctx.requireGroup(String(body.dst_group_id));
    return client.call('send_cross_group', { message_mode: 'send', ...body, group_id: gid, by: BY } as never);
  });
  /** A durable task plus one linked delegation message. */
  r.post('/tracked_send', async (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const body = withoutIdentity(await parseJsonBody(ctx.req, TrackedSendBody));
    return client.call('tracked_send', { ...body, group_id: gid, by: BY } as never);
  });

  /** Non-consuming history of one actor (`?mode=&query=&before_event_id=&limit=`). */
  r.get('/actors/:aid/history', (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const mode = ctx.url.searchParams.get('mode');
    if (mode && !['all', 'send', 'request_reply', 'mail'].includes(mode)) {
      throw new HttpError(400, 'invalid_request', 'mode must be all, send, request_reply or mail', { field: 'mode' });
    }
    const query = ctx.url.searchParams.get('query') ?? ctx.url.searchParams.get('q');
    const before = ctx.url.searchParams.get('before_event_id');
    const limit = positive(queryInt(ctx.url, 'limit'));
    return client.call('message_history', {
      group_id: gid,
      actor_id: ctx.params.aid!,
      by: BY,
      ...(mode ? { mode: mode as 'all' } : {}),
      ...(query ? { query } : {}),
      ...(before ? { before_event_id: before } : {}),
      ...(limit ? { limit } : {}),
    });
  });

  /** Promote Mail / retry a Send to some recipients now. */
  r.post('/messages/:eid/deliver', async (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const body = await parseJsonBody(ctx.req, DeliverBody);
    return client.call('message_deliver', { ...body, group_id: gid, source_event_id: ctx.params.eid!, by: BY });
  });
  r.post('/messages/:eid/reply-request/cancel', (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    return client.call('reply_request_cancel', { group_id: gid, source_event_id: ctx.params.eid!, by: BY });
  });

  /** Read-only context for the UI's coordination view (`?detail=overview|summary|full`). */
  r.get('/context', (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const detail = ctx.url.searchParams.get('detail');
    if (detail && detail !== 'overview' && detail !== 'summary' && detail !== 'full') {
      throw new HttpError(400, 'invalid_request', 'detail must be overview, summary or full', { field: 'detail' });
    }
    return client.call('context_get', { group_id: gid, ...(detail ? { detail } : {}) } as never);
  });

  r.get('/inbox/:aid', (ctx) => {
    ctx.requireGroup(ctx.params.gid!);
    const limit = queryInt(ctx.url, 'limit');
    return client.call('inbox_peek', { group_id: ctx.params.gid!, actor_id: ctx.params.aid!, by: BY, ...(limit ? { limit } : {}) });
  });
  r.post('/inbox/:aid/read', (ctx) => {
    ctx.requireGroup(ctx.params.gid!);
    const limit = queryInt(ctx.url, 'limit');
    return client.call('inbox_read', { group_id: ctx.params.gid!, actor_id: ctx.params.aid!, by: BY, ...(limit ? { limit } : {}) });
  });

  r.get('/ledger/tail', (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const kinds = kindsOf(ctx.url);
    const before = ctx.url.searchParams.get('before_event_id') ?? ctx.url.searchParams.get('before');
    const withRead = queryBool(ctx.url, 'with_read_status');
    const withObligation = queryBool(ctx.url, 'with_obligation_status');
    return client.call('ledger_tail', {
      group_id: gid,
      limit: positive(queryInt(ctx.url, 'limit')) ?? 50,
      ...(kinds ? { kinds } : {}),
      ...(before ? { before_event_id: before } : {}),
      ...(withRead !== undefined ? { with_read_status: withRead } : {}),
      ...(withObligation !== undefined ? { with_obligation_status: withObligation } : {}),
    });
  });
  r.get('/ledger/search', (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const query = ctx.url.searchParams.get('q') ?? ctx.url.searchParams.get('query') ?? '';
    if (!query.trim()) throw new HttpError(400, 'invalid_request', 'query q is required', { field: 'q' });
    const kinds = kindsOf(ctx.url);
    return client.call('ledger_search', {
      group_id: gid,
      query,
      limit: positive(queryInt(ctx.url, 'limit')) ?? 50,
      ...(kinds ? { kinds } : {}),
    });
  });
  r.post('/ledger/statuses', async (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const { event_ids } = await parseJsonBody(ctx.req, StatusesBody);
    return client.call('ledger_statuses', { group_id: gid, event_ids });
  });

  /** `?actor_id=&max_chars=&strip_ansi=&compact=` */
  r.get('/terminal/tail', (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    const actor = ctx.url.searchParams.get('actor_id');
    if (!actor) throw new HttpError(400, 'missing_actor_id', 'query actor_id is required', { field: 'actor_id' });
    const max_chars = queryInt(ctx.url, 'max_chars');
    const strip_ansi = queryBool(ctx.url, 'strip_ansi');
    const compact = queryBool(ctx.url, 'compact');
    return client.call('terminal_tail', {
      group_id: gid,
      actor_id: actor,
      by: BY,
      ...(max_chars !== undefined ? { max_chars } : {}),
      ...(strip_ansi !== undefined ? { strip_ansi } : {}),
      ...(compact !== undefined ? { compact } : {}),
    });
  });
  return r;
}

function kindsOf(url: URL): string[] | undefined {
  const kinds = queryList(url, 'kind', 'kinds');
  // `kind=chat` is the reference Web's shorthand for chat messages.
  return kinds?.map((k) => (k === 'chat' ? 'chat.message' : k));
}

function positive(n: number | undefined): number | undefined {
  return n && n > 0 ? n : undefined;
}
