import { isRecipientOf, type GroupDoc } from '@cccc/groups';
import type { EventOf, RecipientStatus } from '@cccc/ipc-protocol';
import type { LedgerStore } from '@cccc/ledger';

/**
 * Per-recipient facts of one chat.message, projected from the ledger: latest delivery state,
 * Mail read (the recipient's cursor covers it), reply obligation state, and whether an accepted
 * PTY delivery was confirmed by the runtime's own prompt-submit hook.
 */
export function recipientStatuses(store: LedgerStore, group: GroupDoc, message: EventOf<'chat.message'>): Record<string, RecipientStatus> {
  const to = message.data.to ?? [];
  const mode = message.data.message_mode;
  const facts = store.deliveryState(message.id);
  const deliveries = new Map(facts.map((d) => [d.actor_id, d.state]));
  // A confirmation speaks for the delivery it names: only the recipient's current one counts.
  const deliveryIds = new Map(facts.map((d) => [d.actor_id, d.delivery_id]));
  const confirmations = new Map(
    store
      .deliveryConfirmations(message.id)
      .filter((c) => deliveryIds.get(c.actor_id) === c.delivery_id)
      .map((c) => [c.actor_id, c.state]),
  );
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
      delivery_confirmation: confirmations.get(actor.id) ?? null,
    };
  }
  return out;
}
