import type { AttachmentRefV1, EventOf, SystemNotifyData } from '@cccc/ipc-protocol';

/**
 * A `chat.message` as delivery renders it: its ledger identity and its data, typed by the kind
 * registry (REFERENCE_NOTES §1.3). A stored chat.message event is one as it is.
 */
export type DeliveredMessage = Pick<EventOf<'chat.message'>, 'id' | 'by' | 'data'>;

export type DeliveredAttachment = AttachmentRefV1;

/** A `system.notify` as delivery sees it (also the daemon's own notices, e.g. the Mail notice). */
export type DeliveredNotify = Pick<SystemNotifyData, 'kind' | 'title' | 'message'>;
