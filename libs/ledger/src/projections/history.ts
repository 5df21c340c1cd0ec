import { isEventOfKind } from '@cccc/ipc-protocol';
import { ledgerError, LedgerErrorCodes } from '../errors.js';
import type { ActorRole, LedgerEvent } from '../types.js';
import { firstPosition, generationStart } from './generation.js';
import { isAddressedTo, messageMode } from './recipients.js';

export type HistoryMode = 'all' | 'send' | 'request_reply' | 'mail';

export interface HistoryQuery {
  actorId: string;
  role: ActorRole;
  mode?: HistoryMode | undefined;
  query?: string | undefined;
  beforeEventId?: string | undefined;
  limit: number;
}

export interface HistoryPage {
  messages: LedgerEvent[];
  has_more: boolean;
}

/** Case-insensitive substring match on the message text (the `query` filter). */
export function textMatches(event: LedgerEvent, query: string | undefined): boolean {
  if (!query) return true;
  return isEventOfKind(event, 'chat.message') && event.data.text.toLowerCase().includes(query.toLowerCase());
}

export function historyIncludes(event: LedgerEvent, q: HistoryQuery): boolean {
  if (event.kind !== 'chat.message') return false;
  if (event.by !== q.actorId && !isAddressedTo(event, q.actorId, q.role)) return false;
  if (q.mode && q.mode !== 'all' && messageMode(event) !== q.mode) return false;
  return textMatches(event, q.query);
}

/** Messages by or to the actor in its current generation, newest first, paged by event id. */
export function messageHistoryOf(events: readonly LedgerEvent[], q: HistoryQuery): HistoryPage {
  const gen = generationStart(events, q.actorId);
  let end = events.length;
  if (q.beforeEventId) {
    end = firstPosition(events, q.beforeEventId);
    if (end < 0) throw ledgerError(LedgerErrorCodes.eventNotFound, `before_event_id ${q.beforeEventId} not found`);
  }
  const messages: LedgerEvent[] = [];
  for (let i = end - 1; i > gen; i--) {
    const e = events[i] as LedgerEvent;
    if (!historyIncludes(e, q)) continue;
    if (messages.length === q.limit) return { messages, has_more: true };
    messages.push(e);
  }
  return { messages, has_more: false };
}
