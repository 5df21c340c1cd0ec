import type { CCCSEventV1 } from '@cccc/ipc-protocol';
import { DELIVERY_CONFIRMATION_KIND } from '@cccc/ipc-protocol/call';

// Which events `cccc tail` shows. `actor.activity` is appended whenever an agent's working state
// changes, several times per turn: it is for machines (the Web's badges), and by default it would
// bury the conversation a person tails for. `--all` or `--kinds` shows it.

export const HIDDEN_BY_DEFAULT: ReadonlySet<string> = new Set(['actor.activity']);

/**
 * Every kind this implementation appends (REFERENCE_NOTES §1.2 and our vendor kinds). A live
 * stream is an allowlist (no list means only §8.15's five chat kinds), so following "everything"
 * has to name the kinds; a vendor kind missing here shows in the past page, not live.
 */
export const KNOWN_KINDS: readonly string[] = [
  'group.create', 'group.update', 'group.attach', 'group.detach_scope', 'group.set_active_scope', 'group.start',
  'group.stop', 'group.set_state', 'group.settings_update', 'group.automation_update',
  'actor.add', 'actor.update', 'actor.set_role', 'actor.start', 'actor.stop', 'actor.restart', 'actor.remove',
  'actor.new_session', 'actor.activity',
  'chat.message', 'chat.stream', 'chat.reaction', 'mail.read', 'chat.reply_request.cancelled', 'chat.cross_group_receipt',
  'runtime.delivery', DELIVERY_CONFIRMATION_KIND, 'system.notify', 'context.sync',
];

export interface TailSelection {
  /** Sent to the daemon (ledger_tail and the stream); undefined: no server-side filter. */
  readonly kinds: string[] | undefined;
  /** Kinds dropped here, after the daemon's answer. */
  readonly hidden: ReadonlySet<string>;
}

/** `--kinds` wins; `--all` shows everything; otherwise everything but the hidden kinds. */
export function tailSelection(options: { kinds?: string[]; all?: boolean }, following: boolean): TailSelection {
  if (options.kinds && options.kinds.length > 0) return { kinds: options.kinds, hidden: new Set() };
  if (options.all) return { kinds: following ? [...KNOWN_KINDS] : undefined, hidden: new Set() };
  return { kinds: following ? KNOWN_KINDS.filter((k) => !HIDDEN_BY_DEFAULT.has(k)) : undefined, hidden: HIDDEN_BY_DEFAULT };
}

type LedgerPage = { events: CCCSEventV1[]; has_more: boolean };
type PageReader = (args: { limit: number; before_event_id?: string }) => Promise<LedgerPage>;

/** How many pages at most are read to fill one screen around hidden events. */
const MAX_PAGES = 20;

/**
 * The latest `limit` events that are not hidden, oldest first, paging backwards past hidden ones
 * (a busy team can append hundreds of activity events between two messages). `sinceEventId` is
 * the ledger's last event of any kind at the first read: a stream resuming after it misses nothing.
 */
export async function visibleTail(
  read: PageReader,
  hidden: ReadonlySet<string>,
  limit: number,
): Promise<{ events: CCCSEventV1[]; has_more: boolean; sinceEventId: string | undefined }> {
  const kept: CCCSEventV1[] = [];
  let before: string | undefined;
  let sinceEventId: string | undefined;
  let hasMore = false;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const page = await read({ limit, ...(before ? { before_event_id: before } : {}) });
    if (pages === 0) sinceEventId = page.events.at(-1)?.id;
    kept.unshift(...page.events.filter((e) => !hidden.has(e.kind)));
    hasMore = page.has_more;
    before = page.events[0]?.id;
    if (kept.length >= limit || !page.has_more || !before) break;
  }
  return { events: kept.slice(-limit), has_more: hasMore || kept.length > limit, sinceEventId };
}
