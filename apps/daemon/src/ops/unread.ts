import { MAX_QUERY_LIMIT } from '@cccc/ledger';
import type { Kernel } from '../kernel/kernel.js';

/** Unread messages addressed to an actor, as the inbox projection counts them (capped at one page). */
export async function unreadCount(kernel: Kernel, groupId: string, actorId: string): Promise<number> {
  const ledger = await kernel.ledger(groupId);
  return ledger.inboxPeek({ actorId, limit: MAX_QUERY_LIMIT }).messages.length;
}
