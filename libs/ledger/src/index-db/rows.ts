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
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 ? v : null;
}

export function indexFactsOf(event: LedgerEvent): IndexFacts {
  const d = event.data;
  switch (event.kind) {
    case 'chat.message':
      return { chat: { mode: messageMode(event), replyTo: str(d['reply_to']), tokens: recipientTokens(d), clientId: str(d['client_id']) } };
    case 'actor.add': {
      const actor = d['actor'] as Record<string, unknown> | undefined;
      const actorId = str(actor?.['id']);
      return actorId ? { actorAdd: { actorId, createdAt: str(actor?.['created_at']) ?? '' } } : {};
    }
    case 'mail.read': {
      const actorId = str(d['actor_id']);
      const eventId = str(d['event_id']);
      return actorId && eventId ? { mailRead: { actorId, eventId } } : {};
    }
    case 'chat.reply_request.cancelled': {
      const sourceId = str(d['source_event_id']);
      return sourceId ? { cancel: { sourceId } } : {};
    }
    case 'runtime.delivery': {
      const actorId = str(d['actor_id']);
      const sourceId = str(d['source_event_id']);
      const state = str(d['state']);
      if (!actorId || !sourceId || !state) return {};
      return { delivery: { actorId, sourceId, state, deliveryId: str(d['delivery_id']) ?? '', transport: str(d['transport']) ?? '' } };
    }
    case DELIVERY_CONFIRMATION_KIND: {
      const actorId = str(d['actor_id']);
      const sourceId = str(d['source_event_id']);
      const state = str(d['state']);
      if (!actorId || !sourceId || !state) return {};
      return { confirmation: { actorId, sourceId, state, deliveryId: str(d['delivery_id']) ?? '' } };
    }
    default:
      return {};
  }
}
