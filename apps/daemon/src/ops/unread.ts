import { MAX_QUERY_LIMIT } from '@cccc/ledger';
import type { StoreDeps } from '../kernel/store-deps.js';

export type UnreadDeps = Pick<StoreDeps, 'ledgers'>;

/** Unread messages addressed to an actor, as the inbox projection counts them (capped at one page). */
export async function unreadCount(deps: UnreadDeps, groupId: string, actorId: string): Promise<number> {
  const ledger = await deps.ledgers.get(groupId);
  return ledger.inboxPeek({ actorId, limit: MAX_QUERY_LIMIT }).messages.length;
}
