import { isEventOfKind } from '@cccc/ipc-protocol';
import type { LedgerEvent } from '../types.js';
import { DELIVERY_CONFIRMATION_KIND } from '../projections/confirmation.js';
import { messageMode, recipientTokens } from '../projections/recipients.js';

/**
 * What the derived index stores about one event: a pure function of the event, so a rebuild
 * from the JSONL and an incremental append produce identical rows.
 */
export interface IndexFacts {
  chat?: { mode: string; replyTo: string | null; tokens: string[]; clientId: string | null };
  actorAdd?: { actorId: string; createdAt: string };
  mailRead?: { actorId: string; eventId: string };
  cancel?: { sourceId: string };
  delivery?: { actorId: string; sourceId: string; state: string; deliveryId: string; transport: string };
  confirmation?: { actorId: string; sourceId: string; state: string; deliveryId: string };
  /** A system.notify and the actor it targets (null: no one in particular). */
  notice?: { target: string | null };
}

function nonEmptyOrNull(v: string | null | undefined): string | null {
  return v ? v : null;
}

export function indexFactsOf(event: LedgerEvent): IndexFacts {
  if (isEventOfKind(event, 'chat.message')) {
    const d = event.data;
    return { chat: { mode: messageMode(event), replyTo: nonEmptyOrNull(d.reply_to), tokens: recipientTokens(d), clientId: nonEmptyOrNull(d.client_id) } };
  }
  if (isEventOfKind(event, 'actor.add')) {
    const { id, created_at } = event.data.actor;
    return { actorAdd: { actorId: id, createdAt: created_at ?? '' } };
  }
  if (isEventOfKind(event, 'mail.read')) return { mailRead: { actorId: event.data.actor_id, eventId: event.data.event_id } };
  if (isEventOfKind(event, 'chat.reply_request.cancelled')) return { cancel: { sourceId: event.data.source_event_id } };
  if (isEventOfKind(event, 'runtime.delivery')) {
    const d = event.data;
    return { delivery: { actorId: d.actor_id, sourceId: d.source_event_id, state: d.state, deliveryId: d.delivery_id, transport: d.transport } };
  }
  if (isEventOfKind(event, 'system.notify')) return { notice: { target: nonEmptyOrNull(event.data.target_actor_id) } };
  if (isEventOfKind(event, DELIVERY_CONFIRMATION_KIND)) {
    const d = event.data;
    return { confirmation: { actorId: d.actor_id, sourceId: d.source_event_id, state: d.state, deliveryId: d.delivery_id } };
  }
  return {};
}
