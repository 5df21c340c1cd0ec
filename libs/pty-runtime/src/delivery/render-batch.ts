import type { DeliveredMessage, DeliveredNotify } from './message.js';
import { renderChatMessage } from './render-message.js';

export type DeliveryItem = { readonly kind: 'chat'; readonly message: DeliveredMessage } | { readonly kind: 'notify'; readonly notify: DeliveredNotify };

/** Spec §8.6: exactly one per batch that holds a chat.message. */
export const REPLY_INSTRUCTION =
  '[cccc] To answer a message, call cccc_message_reply with event_id set to that message\'s event_id. Use cccc_message_send only for a new message.';

/** `[cccc] SYSTEM (<kind>): <title>` then the message on its own line. */
export function renderSystemNotify(n: DeliveredNotify): string {
  const head = `[cccc] SYSTEM (${n.kind}): ${n.title ?? ''}`.trimEnd();
  return n.message ? `${head}\n${n.message}` : head;
}

/** The content-free Mail notice (§8.6): a count, never the Mail itself. */
export function mailNotice(count: number): DeliveredNotify {
  return { kind: 'mail_notice', title: 'Mail waiting', message: `You have ${count} Mail item(s) waiting. Call cccc_inbox_read when appropriate.` };
}

export interface RenderBatchOptions {
  /** Unread Mail; shown once, on the last send/request_reply message of the batch. */
  readonly mailPending?: number;
}

/**
 * What one PTY submit carries: several queued messages become `[cccc] N new messages:` and blocks
 * separated by a blank line; batches with chat messages end with the single reply instruction.
 */
export function renderDeliveryBatch(items: readonly DeliveryItem[], options: RenderBatchOptions = {}): string {
  if (items.length === 0) return '';
  let mailOn = -1;
  items.forEach((item, i) => {
    if (item.kind === 'chat' && (item.message.data.message_mode === 'send' || item.message.data.message_mode === 'request_reply')) mailOn = i;
  });
  const blocks = items.map((item, i) =>
    item.kind === 'notify'
      ? renderSystemNotify(item.notify)
      : renderChatMessage(item.message, i === mailOn ? { mailPending: options.mailPending ?? 0 } : {}),
  );
  const parts = items.length > 1 ? [`[cccc] ${items.length} new messages:`, ...blocks] : blocks;
  if (items.some((i) => i.kind === 'chat')) parts.push(REPLY_INSTRUCTION);
  return parts.join('\n\n');
}
