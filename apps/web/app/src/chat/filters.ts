import type { LedgerEvent, RecipientStatus } from '../api/types';
import { chatFields } from './message';

// The conversation filters. "Needs reply": a request_reply message someone still owes an answer
// to — an agent recipient whose obligation is open, or the user when an agent asked the user and
// no reply of the user's names it. "Unread": Mail a recipient has not read yet (its inbox
// cursor is before it). Both read the per-recipient statuses of the loaded messages.

export const CHAT_FILTERS = ['all', 'user', 'needs_reply', 'unread'] as const;
export type ChatFilter = (typeof CHAT_FILTERS)[number];

// Labels and hints per filter live in the i18n catalogs (chat.filter.*, chat.filterHint.*).

export interface FilterContext {
  readonly statuses: ReadonlyMap<string, Record<string, RecipientStatus>>;
  /** Ids of messages the user has replied to. */
  readonly repliedByUser: ReadonlySet<string>;
}

/** Ids of the user's replies' targets among the loaded messages. */
export function userReplyTargets(events: readonly LedgerEvent[]): Set<string> {
  const out = new Set<string>();
  for (const e of events) {
    if (e.by !== 'user') continue;
    const to = chatFields(e).replyTo;
    if (to) out.add(to);
  }
  return out;
}

/** Which loaded messages a filter needs statuses for (the rest it decides from the event). */
export function statusCandidates(filter: ChatFilter, events: readonly LedgerEvent[]): string[] {
  const mode = filter === 'needs_reply' ? 'request_reply' : filter === 'unread' ? 'mail' : null;
  return mode ? events.filter((e) => chatFields(e).mode === mode).map((e) => e.id) : [];
}

export function matchesFilter(filter: ChatFilter, event: LedgerEvent, ctx: FilterContext): boolean {
  if (filter === 'all') return true;
  if (event.kind !== 'chat.message') return false;
  const fields = chatFields(event);
  const statuses = Object.values(ctx.statuses.get(event.id) ?? {});
  switch (filter) {
    case 'user':
      return event.by === 'user';
    case 'needs_reply':
      if (fields.mode !== 'request_reply') return false;
      if (fields.to.includes('user') && event.by !== 'user' && !ctx.repliedByUser.has(event.id)) return true;
      return statuses.some((s) => s.reply_requested && !s.replied && !s.cancelled);
    case 'unread':
      return fields.mode === 'mail' && statuses.some((s) => !s.read);
  }
}
