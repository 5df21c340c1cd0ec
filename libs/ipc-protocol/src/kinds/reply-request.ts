import { z } from 'zod';

/** `chat.reply_request.cancelled`: closes every still-open obligation of one request_reply. */
export const ReplyRequestCancelledData = z.looseObject({
  source_event_id: z.string().min(1),
});
export type ReplyRequestCancelledData = z.infer<typeof ReplyRequestCancelledData>;
