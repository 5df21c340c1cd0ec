import { isEventOfKind } from '@cccc/ipc-protocol';
import type { LedgerEvent } from '../types.js';
import { concreteRecipients, messageMode } from './recipients.js';

export type ObligationStatus = 'open' | 'replied' | 'cancelled';

export interface ReplyObligation {
  source_event_id: string;
  actor_id: string;
  status: ObligationStatus;
  /** The reply or cancellation that closed it. */
  closed_by_event_id: string | null;
}

/** Minimal facts the decision needs, so the index and a full scan share one rule. */
export interface ObligationFacts {
  source: LedgerEvent;
  /** chat.message events with reply_to = source id, append order, with their `by`. */
  replies: Array<{ id: string; by: string; pos: number }>;
  /** chat.reply_request.cancelled for the source, append order. */
  cancels: Array<{ id: string; by: string; pos: number }>;
  sourcePos: number;
}

/**
 * One obligation per concrete recipient of a request_reply. Append order decides races: a
 * reply before the first valid cancel is `replied`, otherwise the cancel makes it `cancelled`,
 * and later replies do not reopen or flip it. Only the sender or the user may cancel.
 */
export function decideObligations(f: ObligationFacts): ReplyObligation[] {
  if (f.source.kind !== 'chat.message' || messageMode(f.source) !== 'request_reply') return [];
  const cancel = f.cancels.find((c) => c.pos > f.sourcePos && (c.by === f.source.by || c.by === 'user'));
  return concreteRecipients(f.source).map((actorId) => {
    const reply = f.replies.find((r) => r.by === actorId && r.pos > f.sourcePos);
    let status: ObligationStatus = 'open';
    let closedBy: string | null = null;
    if (reply && (!cancel || reply.pos < cancel.pos)) {
      status = 'replied';
      closedBy = reply.id;
    } else if (cancel) {
      status = 'cancelled';
      closedBy = cancel.id;
    }
    return { source_event_id: f.source.id, actor_id: actorId, status, closed_by_event_id: closedBy };
  });
}

/** Full-scan form: gather the facts from the event array. */
export function replyObligationsOf(events: readonly LedgerEvent[], sourceEventId: string): ReplyObligation[] {
  const sourcePos = events.findIndex((e) => e.id === sourceEventId);
  if (sourcePos < 0) return [];
  const replies: ObligationFacts['replies'] = [];
  const cancels: ObligationFacts['cancels'] = [];
  events.forEach((e, pos) => {
    if (isEventOfKind(e, 'chat.message') && e.data.reply_to === sourceEventId) replies.push({ id: e.id, by: e.by, pos });
    if (isEventOfKind(e, 'chat.reply_request.cancelled') && e.data.source_event_id === sourceEventId) cancels.push({ id: e.id, by: e.by, pos });
  });
  return decideObligations({ source: events[sourcePos] as LedgerEvent, sourcePos, replies, cancels });
}
