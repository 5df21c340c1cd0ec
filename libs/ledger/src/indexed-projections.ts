import type { DeliveryState } from '@cccc/ipc-protocol';
import { ledgerError, LedgerErrorCodes } from './errors.js';
import type { IndexQueries } from './index-db/queries.js';
import { mergeOrds } from './index-db/queries.js';
import { readCursors } from './mail/cursor-files.js';
import type { ConfirmationFact, ConfirmationState } from './projections/confirmation.js';
import type { DeliveryFact } from './projections/delivery.js';
import { textMatches, type HistoryPage, type HistoryQuery } from './projections/history.js';
import type { InboxView } from './projections/inbox.js';
import { decideObligations, type ReplyObligation } from './projections/obligations.js';
import { beforeNotFound, firstMatches, kindsOf, type EventPage, type TailQuery } from './projections/pages.js';
import { tokensAddressing } from './projections/recipients.js';
import type { UndeliveredView } from './projections/undelivered.js';
import type { ActorRole, LedgerEvent } from './types.js';

/** What the index-backed projections need from the store. */
export interface IndexedContext {
  queries: IndexQueries;
  readOrd(ord: number): LedgerEvent;
  cursorsPath: string;
  /** Page size of the text-query walk (small values exercise the paging in tests). */
  historyQueryPage?: number | undefined;
}

/** The generation start and the effective Mail watermark (see `mailWatermark`), as ords. */
function inboxBounds(ctx: IndexedContext, actorId: string): { gen: number; mark: number } {
  const q = ctx.queries;
  const gen = q.generation(actorId)?.ord ?? 0;
  let mark = 0;
  const entry = readCursors(ctx.cursorsPath).get(actorId);
  if (entry) {
    const loc = q.byId(entry.event_id);
    if (loc && loc.ord > gen) mark = loc.ord;
  }
  return { gen, mark: Math.max(mark, q.mailReadMark(actorId, gen)) };
}

/** Same answer as `inboxUnread` over a full scan, from bounded index range scans. */
export function inboxPeekIndexed(ctx: IndexedContext, actorId: string, role: ActorRole, limit: number): InboxView {
  const { gen, mark } = inboxBounds(ctx, actorId);
  const after = Math.max(gen, mark);
  const lists = tokensAddressing(actorId, role).map((t) => ctx.queries.mailForToken(t, after, actorId, limit));
  const messages = mergeOrds(lists, false, limit).map((ord) => ctx.readOrd(ord));
  const at = mark > 0 ? ctx.readOrd(mark) : undefined;
  return { messages, cursor: { event_id: at?.id ?? '', ts: at?.ts ?? '' } };
}

/** Passive mail_pending count: same boundaries as the Inbox, never moves the cursor. */
export function inboxCountIndexed(ctx: IndexedContext, actorId: string, role: ActorRole): number {
  const { gen, mark } = inboxBounds(ctx, actorId);
  return ctx.queries.unreadMailCount(tokensAddressing(actorId, role), Math.max(gen, mark), actorId);
}

const QUERY_PAGE = 256;

/** Same answer as `messageHistoryOf`: newest first, by or to the actor, current generation. */
export function messageHistoryIndexed(ctx: IndexedContext, hq: HistoryQuery): HistoryPage {
  const q = ctx.queries;
  const gen = q.generation(hq.actorId)?.ord ?? 0;
  let upper = Number.MAX_SAFE_INTEGER;
  if (hq.beforeEventId) {
    const loc = q.byId(hq.beforeEventId);
    if (!loc) throw ledgerError(LedgerErrorCodes.eventNotFound, `before_event_id ${hq.beforeEventId} not found`);
    upper = loc.ord;
  }
  const mode = hq.mode && hq.mode !== 'all' ? hq.mode : undefined;
  const tokens = [...tokensAddressing(hq.actorId, hq.role), `from:${hq.actorId}`];
  const want = hq.limit + 1;
  const found: LedgerEvent[] = [];
  // Without a text query one page of limit+1 per token is exact. With one, walk down in pages;
  // only ords above the highest cut-off of a full page are known to be complete.
  const page = hq.query ? Math.max(ctx.historyQueryPage ?? QUERY_PAGE, 1) : want;
  while (found.length < want) {
    const lists = tokens.map((t) => q.historyForToken(t, mode, gen, upper, page).map((r) => r.ord));
    const merged = mergeOrds(lists, true, Number.MAX_SAFE_INTEGER);
    if (merged.length === 0) break;
    const cutoffs = lists.filter((l) => l.length === page).map((l) => l[l.length - 1] as number);
    const floor = cutoffs.length ? Math.max(...cutoffs) : 0;
    for (const ord of merged) {
      if (ord < floor) break;
      const event = ctx.readOrd(ord);
      if (textMatches(event, hq.query)) found.push(event);
      if (found.length === want) break;
    }
    if (floor === 0) break;
    upper = floor;
  }
  return { messages: found.slice(0, hq.limit), has_more: found.length > hq.limit };
}

export function replyObligationsIndexed(ctx: IndexedContext, sourceEventId: string): ReplyObligation[] {
  const q = ctx.queries;
  const loc = q.byId(sourceEventId);
  if (!loc) return [];
  const source = ctx.readOrd(loc.ord);
  const withIds = (rows: Array<{ ord: number; by: string }>) => rows.map((r) => ({ id: q.idOfOrd(r.ord) ?? '', by: r.by, pos: r.ord }));
  return decideObligations({ source, sourcePos: loc.ord, replies: withIds(q.replies(sourceEventId)), cancels: withIds(q.cancels(sourceEventId)) });
}

export function deliveryStateIndexed(ctx: IndexedContext, sourceEventId: string): DeliveryFact[] {
  return ctx.queries.deliveries(sourceEventId).map((r) => ({
    actor_id: r.actor_id,
    source_event_id: r.source_id,
    delivery_id: r.delivery_id,
    state: r.state as DeliveryState,
    transport: r.transport,
    event_id: ctx.queries.idOfOrd(r.ord) ?? '',
  }));
}

export function deliveryConfirmationsIndexed(ctx: IndexedContext, sourceEventId: string): ConfirmationFact[] {
  return ctx.queries
    .confirmations(sourceEventId)
    .filter((r) => r.state === 'confirmed' || r.state === 'unconfirmed')
    .map((r) => ({ actor_id: r.actor_id, source_event_id: r.source_id, delivery_id: r.delivery_id, state: r.state as ConfirmationState }));
}

/**
 * Events below `beforeOrd` (of `kinds`, or of every kind), newest first, read lazily in pages
 * of `page` ords per kind: only ords above the highest cut-off of a full list are known to be
 * complete, so each round yields those and the next starts there.
 */
export function* eventsDescending(ctx: IndexedContext, kinds: readonly string[] | undefined, beforeOrd: number, page: number): Generator<LedgerEvent> {
  let upper = beforeOrd;
  for (;;) {
    const lists = kinds ? kinds.map((k) => ctx.queries.kindBefore(k, upper, page)) : [ctx.queries.ordsBefore(upper, page)];
    const merged = mergeOrds(lists, true, Number.MAX_SAFE_INTEGER);
    if (merged.length === 0) return;
    const cutoffs = lists.filter((l) => l.length === page).map((l) => l[l.length - 1] as number);
    const floor = cutoffs.length ? Math.max(...cutoffs) : 0;
    for (const ord of merged) {
      if (ord < floor) break;
      yield ctx.readOrd(ord);
    }
    if (floor === 0) return;
    upper = floor;
  }
}

/** The position a page ends before: the event's ord, or past the end. */
export function upperBound(ctx: IndexedContext, beforeEventId: string | undefined): number {
  if (beforeEventId === undefined) return Number.MAX_SAFE_INTEGER;
  const loc = ctx.queries.byId(beforeEventId);
  if (!loc) throw beforeNotFound(beforeEventId);
  return loc.ord;
}

/** Same answer as `tailOf`: one index range scan per kind of `limit + 1` ords, then `limit` reads. */
export function tailIndexed(ctx: IndexedContext, q: TailQuery): EventPage {
  const upper = upperBound(ctx, q.beforeEventId);
  const page = firstMatches(eventsDescending(ctx, kindsOf(q.kinds), upper, q.limit + 1), () => true, q.limit);
  return { events: page.events.reverse(), has_more: page.has_more };
}

/** Same answer as `undeliveredOf`, from the generation mark, the audience and notice rows and the delivery table. */
export function undeliveredIndexed(ctx: IndexedContext, actorId: string, role: ActorRole): UndeliveredView {
  const q = ctx.queries;
  const gen = q.generation(actorId)?.ord ?? 0;
  const lists = tokensAddressing(actorId, role).map((t) => q.undeliveredChat(t, gen, actorId));
  lists.push(q.undeliveredNotices(gen, actorId));
  return {
    generationEventId: gen > 0 ? q.idOfOrd(gen) : undefined,
    events: mergeOrds(lists, false, Number.MAX_SAFE_INTEGER).map((ord) => ctx.readOrd(ord)),
    legacyReads: q.kindAfter('chat.read', gen).map((ord) => ctx.readOrd(ord)),
  };
}
