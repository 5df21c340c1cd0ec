/**
 * The parts of a `chat.message` event that delivery renders (REFERENCE_NOTES §1.3). Field names
 * follow the event data so `messageFromEvent` is a plain projection.
 */
export interface DeliveredMessage {
  readonly event_id: string;
  readonly by: string;
  readonly to?: readonly string[] | null;
  readonly text: string;
  readonly message_mode?: 'send' | 'request_reply' | 'mail' | null;
  readonly reply_to?: string | null;
  readonly quote_text?: string | null;
  readonly source_platform?: string | null;
  readonly source_user_name?: string | null;
  readonly source_user_id?: string | null;
  readonly src_group_id?: string | null;
  readonly src_event_id?: string | null;
  readonly refs?: readonly unknown[] | null;
  readonly attachments?: readonly DeliveredAttachment[] | null;
  readonly insight?: string | null;
}

export interface DeliveredAttachment {
  readonly path: string;
  readonly title?: string;
  readonly bytes?: number;
}

/** A `system.notify` as delivery sees it. */
export interface DeliveredNotify {
  readonly kind: string;
  readonly title?: string | null;
  readonly message?: string | null;
}

/** Projects a ledger `chat.message` event ({id, by, data}) into what rendering needs. */
export function messageFromEvent(event: { readonly id: string; readonly by: string; readonly data: Readonly<Record<string, unknown>> }): DeliveredMessage {
  const d = event.data;
  const str = (k: string) => (typeof d[k] === 'string' ? (d[k] as string) : null);
  return {
    event_id: event.id,
    by: event.by,
    to: Array.isArray(d.to) ? (d.to as string[]) : null,
    text: str('text') ?? '',
    message_mode: (str('message_mode') as DeliveredMessage['message_mode']) ?? null,
    reply_to: str('reply_to'),
    quote_text: str('quote_text'),
    source_platform: str('source_platform'),
    source_user_name: str('source_user_name'),
    source_user_id: str('source_user_id'),
    src_group_id: str('src_group_id'),
    src_event_id: str('src_event_id'),
    refs: Array.isArray(d.refs) ? d.refs : null,
    attachments: Array.isArray(d.attachments) ? (d.attachments as DeliveredAttachment[]) : null,
    insight: str('insight'),
  };
}
