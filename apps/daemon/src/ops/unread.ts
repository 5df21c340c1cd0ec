import type { Kernel } from '../kernel/kernel.js';

/** Unread Mail addressed to an actor: the ledger's passive count (the Inbox's boundaries, no cursor move). */
export async function unreadCount(kernel: Kernel, groupId: string, actorId: string): Promise<number> {
  return (await kernel.ledger(groupId)).inboxCount({ actorId });
}
