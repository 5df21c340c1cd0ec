import type { StoreDeps } from '../kernel/store-deps.js';

export type UnreadDeps = Pick<StoreDeps, 'ledgers'>;

/** Unread Mail addressed to an actor: the ledger's passive count (the Inbox's boundaries, no cursor move). */
export async function unreadCount(deps: UnreadDeps, groupId: string, actorId: string): Promise<number> {
  return (await deps.ledgers.get(groupId)).inboxCount({ actorId });
}
