import type { LedgerEvent } from '../api/types';
import { noticeForUser, type Notice } from './notices';
import { dayKey, dayLabel } from './time';

// The conversation as rows: messages and the user's notices in ledger order, with a separator
// row before the first row of each calendar day. Pure, so the virtual list gets stable keys.

export type TimelineItem =
  | { readonly type: 'day'; readonly key: string; readonly label: string }
  | { readonly type: 'message'; readonly key: string; readonly event: LedgerEvent }
  | { readonly type: 'notice'; readonly key: string; readonly event: LedgerEvent; readonly notice: Notice };

export function buildTimeline(events: readonly LedgerEvent[], now: number, locale = 'en'): TimelineItem[] {
  const out: TimelineItem[] = [];
  let day = '';
  for (const event of events) {
    let row: TimelineItem;
    if (event.kind === 'chat.message') row = { type: 'message', key: event.id, event };
    else {
      const notice = noticeForUser(event);
      if (!notice) continue;
      row = { type: 'notice', key: event.id, event, notice };
    }
    const key = dayKey(event.ts);
    if (key && key !== day) {
      day = key;
      out.push({ type: 'day', key: `day:${key}`, label: dayLabel(event.ts, now, locale) });
    }
    out.push(row);
  }
  return out;
}
