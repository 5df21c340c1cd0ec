import { isEventOfKind } from '@cccc/ipc-protocol';
import type { ActorRole, LedgerEvent } from '../types.js';
import { firstPosition, generationStart } from './generation.js';
import { isAddressedTo, messageMode } from './recipients.js';

export interface InboxCursor {
  event_id: string;
  ts: string;
}

export interface InboxQuery {
  actorId: string;
  role: ActorRole;
  /** event_id of the persisted cursor (read_cursors.json), if any. */
  cursorEventId?: string | undefined;
  limit: number;
}

export interface InboxView {
  messages: LedgerEvent[];
  cursor: InboxCursor;
}

/**
 * Effective Mail watermark: the later (in append order) of the persisted cursor and the latest
 * `mail.read` of the actor's current generation. The ledger's mail.read is the commit record and
 * the cursor file a projection of it, so either may be ahead after a crash; neither moves back.
 */
export function mailWatermark(events: readonly LedgerEvent[], actorId: string, cursorEventId: string | undefined): number {
  const gen = generationStart(events, actorId);
  let mark = -1;
  if (cursorEventId) {
    const pos = firstPosition(events, cursorEventId);
    if (pos > gen) mark = pos;
  }
  for (let i = gen + 1; i < events.length; i++) {
    const e = events[i] as LedgerEvent;
    if (!isEventOfKind(e, 'mail.read') || e.data.actor_id !== actorId) continue;
    const target = firstPosition(events, e.data.event_id, i);
    if (target > gen && target > mark) mark = target;
  }
  return mark;
}

/** Unread Mail for the actor, oldest first: a pure function of the events and the cursor. */
export function inboxUnread(events: readonly LedgerEvent[], q: InboxQuery): InboxView {
  const gen = generationStart(events, q.actorId);
  const mark = mailWatermark(events, q.actorId, q.cursorEventId);
  const messages: LedgerEvent[] = [];
  for (let i = Math.max(gen, mark) + 1; i < events.length && messages.length < q.limit; i++) {
    const e = events[i] as LedgerEvent;
    if (messageMode(e) === 'mail' && isAddressedTo(e, q.actorId, q.role)) messages.push(e);
  }
  const at = mark >= 0 ? (events[mark] as LedgerEvent) : undefined;
  return { messages, cursor: { event_id: at?.id ?? '', ts: at?.ts ?? '' } };
}

/** Number of unread Mail messages (the passive mail_pending summary). */
export function inboxUnreadCount(events: readonly LedgerEvent[], q: Omit<InboxQuery, 'limit'>): number {
  return inboxUnread(events, { ...q, limit: Number.MAX_SAFE_INTEGER }).messages.length;
}
