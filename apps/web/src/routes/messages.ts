import { queryBool, queryInt, queryList } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import type { ApiRoutes } from './api-routes.js';

const HISTORY_MODES = ['all', 'send', 'request_reply', 'mail'] as const;
const CONTEXT_DETAILS = ['overview', 'summary', 'full'] as const;
/** Events per ledger page when the query names no limit. */
const DEFAULT_LIMIT = 50;

/** Messaging, inbox, ledger reads and the terminal tail (§8.2 "Messaging", "Ledger"). */
export function registerMessageRoutes(api: ApiRoutes): void {
  api.op('send');
  api.op('reply');
  /** The caller must reach both groups. */
  api.op('send_cross_group', { authorize: (ctx, args) => ctx.requireGroup(args.dst_group_id) });
  /** A durable task plus one linked delegation message. */
  api.op('tracked_send');

  /** Non-consuming history of one actor (`?mode=&query=&before_event_id=&limit=`). */
  api.op('message_history', {
    query: (url) => {
      const mode = oneOf(url, 'mode', HISTORY_MODES, 'mode must be all, send, request_reply or mail');
      const query = url.searchParams.get('query') ?? url.searchParams.get('q');
      const before = url.searchParams.get('before_event_id');
      const limit = positive(queryInt(url, 'limit'));
      return {
        ...(mode ? { mode } : {}),
        ...(query ? { query } : {}),
        ...(before ? { before_event_id: before } : {}),
        ...(limit ? { limit } : {}),
      };
    },
  });

  /** Promote Mail / retry a Send to some recipients now. */
  api.op('message_deliver');
  api.op('reply_request_cancel');

  /** Read-only context for the UI's coordination view (`?detail=overview|summary|full`). */
  api.op('context_get', {
    query: (url) => {
      const detail = oneOf(url, 'detail', CONTEXT_DETAILS, 'detail must be overview, summary or full');
      return detail ? { detail } : {};
    },
  });

  /** The group's memory, full-text (`?query=&max_results=`), for the Web's memory search box. */
  api.op('memory_reme_search', {
    query: (url) => {
      const max = positive(queryInt(url, 'max_results'));
      return { query: url.searchParams.get('query') ?? url.searchParams.get('q') ?? '', ...(max ? { max_results: max } : {}) };
    },
  });

  const inboxLimit = (url: URL) => {
    const limit = queryInt(url, 'limit');
    return limit ? { limit } : {};
  };
  api.op('inbox_peek', { query: inboxLimit });
  api.op('inbox_read', { query: inboxLimit });

  api.op('ledger_tail', {
    query: (url) => {
      const kinds = kindsOf(url);
      const before = url.searchParams.get('before_event_id') ?? url.searchParams.get('before');
      const withRead = queryBool(url, 'with_read_status');
      const withObligation = queryBool(url, 'with_obligation_status');
      return {
        limit: positive(queryInt(url, 'limit')) ?? DEFAULT_LIMIT,
        ...(kinds ? { kinds } : {}),
        ...(before ? { before_event_id: before } : {}),
        ...(withRead !== undefined ? { with_read_status: withRead } : {}),
        ...(withObligation !== undefined ? { with_obligation_status: withObligation } : {}),
      };
    },
  });
  api.op('ledger_search', {
    query: (url) => {
      const query = url.searchParams.get('q') ?? url.searchParams.get('query') ?? '';
      if (!query.trim()) throw new HttpError(400, 'invalid_request', 'query q is required', { field: 'q' });
      const kinds = kindsOf(url);
      return { query, limit: positive(queryInt(url, 'limit')) ?? DEFAULT_LIMIT, ...(kinds ? { kinds } : {}) };
    },
  });
  api.op('ledger_statuses');

  /** `?actor_id=&max_chars=&strip_ansi=&compact=` */
  api.op('terminal_tail', {
    query: (url) => {
      const actor_id = url.searchParams.get('actor_id');
      if (!actor_id) throw new HttpError(400, 'missing_actor_id', 'query actor_id is required', { field: 'actor_id' });
      const max_chars = queryInt(url, 'max_chars');
      const strip_ansi = queryBool(url, 'strip_ansi');
      const compact = queryBool(url, 'compact');
      return {
        actor_id,
        ...(max_chars !== undefined ? { max_chars } : {}),
        ...(strip_ansi !== undefined ? { strip_ansi } : {}),
        ...(compact !== undefined ? { compact } : {}),
      };
    },
  });
}

/** `?kind=a&kind=b` or `?kinds=a,b`; `kind=chat` is the reference Web's shorthand for chat messages. */
export function kindsOf(url: URL): string[] | undefined {
  return queryList(url, 'kind', 'kinds')?.map((k) => (k === 'chat' ? 'chat.message' : k));
}

function positive(n: number | undefined): number | undefined {
  return n && n > 0 ? n : undefined;
}

/** A query value that must be one of `choices` (absent = undefined). */
function oneOf<const T extends string>(url: URL, name: string, choices: readonly T[], message: string): T | undefined {
  const value = url.searchParams.get(name);
  if (!value) return undefined;
  const choice = choices.find((c) => c === value);
  if (!choice) throw new HttpError(400, 'invalid_request', message, { field: name });
  return choice;
}
