import { isEventOfKind } from '@cccc/ipc-protocol';
import { ledgerError, LedgerErrorCodes } from '../errors.js';
import type { LedgerEvent } from '../types.js';
import { firstPosition } from './generation.js';

/** A page of events and whether more exist past it. */
export interface EventPage {
  events: LedgerEvent[];
  has_more: boolean;
}

export interface TailQuery {
  /** Only these kinds (exact match); every kind when absent or empty. */
  kinds?: readonly string[] | undefined;
  /** The page ends just before this event, which must exist; default: the ledger's end. */
  beforeEventId?: string | undefined;
  limit: number;
}

export interface SearchQuery {
  /** Case-insensitive substring of the searchable text (see `searchableText`). */
  query: string;
  kinds?: readonly string[] | undefined;
  limit: number;
}

/** The distinct kinds a query names, or undefined for "every kind". */
export function kindsOf(kinds: readonly string[] | undefined): string[] | undefined {
  return kinds && kinds.length > 0 ? [...new Set(kinds)] : undefined;
}

export function beforeNotFound(id: string): Error {
  return ledgerError(LedgerErrorCodes.eventNotFound, `before_event_id ${id} is not in this ledger`, { field: 'before_event_id' });
}

/** The searchable text of an event: a message's text, a notice's title and message. */
export function searchableText(event: LedgerEvent): Array<string | null | undefined> {
  if (isEventOfKind(event, 'chat.message')) return [event.data.text];
  if (isEventOfKind(event, 'system.notify')) return [event.data.title, event.data.message];
  // Other kinds are open records here; a string `text`, `title` or `message` is still searched.
  const { text, title, message } = event.data;
  return [text, title, message].map((v) => (typeof v === 'string' ? v : undefined));
}

/** `needle` is already lower-case. */
export function matchesSearch(event: LedgerEvent, needle: string): boolean {
  return searchableText(event).some((v) => typeof v === 'string' && v.toLowerCase().includes(needle));
}

/** The first `limit` events `keep` accepts, in the order given, and whether one more exists. */
export function firstMatches(events: Iterable<LedgerEvent>, keep: (e: LedgerEvent) => boolean, limit: number): EventPage {
  const out: LedgerEvent[] = [];
  for (const event of events) {
    if (!keep(event)) continue;
    if (out.length === limit) return { events: out, has_more: true };
    out.push(event);
  }
  return { events: out, has_more: false };
}

function* backwardFrom(events: readonly LedgerEvent[], end: number): Generator<LedgerEvent> {
  for (let i = end - 1; i >= 0; i--) yield events[i] as LedgerEvent;
}

/** ledger_tail over the full event list: the latest matching events before a point, oldest first. */
export function tailOf(events: readonly LedgerEvent[], q: TailQuery): EventPage {
  let end = events.length;
  if (q.beforeEventId !== undefined) {
    end = firstPosition(events, q.beforeEventId);
    if (end < 0) throw beforeNotFound(q.beforeEventId);
  }
  const kinds = kindsOf(q.kinds);
  const page = firstMatches(backwardFrom(events, end), (e) => !kinds || kinds.includes(e.kind), q.limit);
  return { events: page.events.reverse(), has_more: page.has_more };
}

/** ledger_search over the full event list: matching events newest first. */
export function searchOf(events: readonly LedgerEvent[], q: SearchQuery): EventPage {
  return searchEvents(backwardFrom(events, events.length), q);
}

/** ledger_search over events given newest first (a backward read, or one kind index walk). */
export function searchEvents(newestFirst: Iterable<LedgerEvent>, q: SearchQuery): EventPage {
  const kinds = kindsOf(q.kinds);
  const needle = q.query.toLowerCase();
  return firstMatches(newestFirst, (e) => (!kinds || kinds.includes(e.kind)) && matchesSearch(e, needle), q.limit);
}
