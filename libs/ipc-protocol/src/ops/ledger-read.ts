import { z } from 'zod';
import { CCCSEventV1 } from '../events.js';
import { DeliveryState } from '../kinds/delivery.js';
import { DeliveryConfirmationState } from '../kinds/delivery-confirmation.js';
import { defineOp } from './define.js';
import { EventKindsArg, GroupIdArg, LimitArg } from './shared.js';

// Read extensions for the Web and tools (issue 4), advertised in ping.capabilities; they are
// not in the v1 spec, so the names below are this implementation's contract.
//
// Per-recipient message status, keyed `event_id -> actor_id -> status`. Recipients are the
// concrete actors a chat.message addressed (selectors resolved at its ledger position, sender
// excluded); a message to the user has no actor recipients, so its map is empty. The status is
// split in the two halves ledger_tail can ask for separately:
//   read:       delivery_state  latest runtime.delivery state, null when none was recorded
//                               (plain Mail, or nothing claimed yet)
//               read            Mail only: the recipient's mail.read watermark covers the event
//                               (always false for send/request_reply, which have no read receipt)
//   obligation: reply_requested request_reply and this recipient is a concrete obligee
//               replied         the recipient replied (reply_to = event) before any cancel
//               cancelled       chat.reply_request.cancelled closed it before a reply
//   ledger_statuses also carries delivery_confirmation: after an accepted PTY delivery to a
//   hooked runtime, "confirmed" (its UserPromptSubmit hook followed) or "unconfirmed" (none
//   within the window); null when no confirmation applies or none is recorded yet.

export const RecipientReadStatus = z.object({ delivery_state: DeliveryState.nullable(), read: z.boolean() });
export const RecipientObligationStatus = z.object({
  reply_requested: z.boolean(),
  replied: z.boolean(),
  cancelled: z.boolean(),
});
export const RecipientStatus = RecipientReadStatus.extend(RecipientObligationStatus.shape).extend({
  delivery_confirmation: DeliveryConfirmationState.nullable(),
});
export type RecipientStatus = z.infer<typeof RecipientStatus>;

/** `event_id -> actor_id -> T`. */
function byEventThenRecipient<T extends z.ZodType>(status: T) {
  return z.record(z.string(), z.record(z.string(), status));
}

/**
 * Events in append order (oldest first) ending just before `before_event_id`, or at the ledger
 * end; `has_more` says older events exist. The status maps cover the chat.message events of
 * the page and are present only when their flag is set.
 */
export const ledger_tail = defineOp({
  summary: 'Read the latest events of a group ledger, page by page backwards.',
  args: () => z.object({
    group_id: GroupIdArg,
    kinds: EventKindsArg.optional(),
    limit: LimitArg,
    before_event_id: z.string().optional(),
    with_read_status: z.boolean().optional(),
    with_obligation_status: z.boolean().optional(),
  }),
  result: () => z.object({
    events: z.array(CCCSEventV1),
    has_more: z.boolean(),
    read_status: byEventThenRecipient(RecipientReadStatus).optional(),
    obligation_status: byEventThenRecipient(RecipientObligationStatus).optional(),
  }),
});

/** Newest first, like message_history; `has_more` says more matches exist past `limit`. */
export const ledger_search = defineOp({
  summary: 'Search a group ledger by text, optionally within some event kinds.',
  args: () => z.object({ group_id: GroupIdArg, query: z.string().min(1), kinds: EventKindsArg.optional(), limit: LimitArg }),
  result: () => z.object({ events: z.array(CCCSEventV1), has_more: z.boolean() }),
});

/** Bounded so one request cannot make the daemon project the whole ledger. */
export const MAX_STATUS_EVENT_IDS = 1000;

/** Ids that are not chat.message events of this group are left out and listed in unknown_event_ids. */
export const ledger_statuses = defineOp({
  summary: 'Per-recipient delivery, read and reply-obligation status of chat messages.',
  args: () => z.object({ group_id: GroupIdArg, event_ids: z.array(z.string().min(1)).min(1).max(MAX_STATUS_EVENT_IDS) }),
  result: () => z.object({
    group_id: z.string(),
    statuses: byEventThenRecipient(RecipientStatus),
    unknown_event_ids: z.array(z.string()),
  }),
});
