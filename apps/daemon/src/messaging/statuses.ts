import { isRecipientOf, type GroupDoc } from '@cccc/groups';
import type { RecipientStatus } from '@cccc/ipc-protocol';
import type { LedgerEvent, LedgerStore } from '@cccc/ledger';

/**
 * Per-recipient facts of one chat.message, projected from the ledger: latest delivery state,
 * Mail read (the recipient's cursor covers it), reply obligation state.
 */
export function recipientStatuses(store: LedgerStore, group: GroupDoc, message: LedgerEvent): Record<string, RecipientStatus> {
  const to = Array.isArray(message.data['to']) ? (message.data['to'] as string[]) : [];
  const mode = message.data['message_mode'];
  const deliveries = new Map(store.deliveryState(message.id).map((d) => [d.actor_id, d.state]));
  const obligations = new Map(
    mode === 'request_reply' ? store.replyObligations(message.id).map((o) => [o.actor_id, o.status]) : [],
  );
  const position = store.ordinalOf(message.id);
  const out: Record<string, RecipientStatus> = {};
  for (const actor of group.actors) {
    if (!isRecipientOf({ by: message.by, to }, actor, group.actors) && !obligations.has(actor.id) && !deliveries.has(actor.id)) continue;
    let read = false;
    if (mode === 'mail' && position !== undefined) {
      const cursor = store.mailCursorOf(actor.id);
      const cursorPosition = cursor ? store.ordinalOf(cursor.event_id) : undefined;
      read = cursorPosition !== undefined && cursorPosition >= position;
    }
    const obligation = obligations.get(actor.id);
    out[actor.id] = {
      delivery_state: deliveries.get(actor.id) ?? null,
      read,
      reply_requested: obligation !== undefined,
      replied: obligation === 'replied',
      cancelled: obligation === 'cancelled',
    };
  }
  return out;
}
