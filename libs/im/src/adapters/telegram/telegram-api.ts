import { z } from 'zod';

// The Bot API shapes this adapter reads (https://core.telegram.org/bots/api); all loose, since
// Telegram adds fields freely.

export const TgUser = z.looseObject({ id: z.number(), first_name: z.string().optional(), username: z.string().optional() });

export const TgMessage = z.looseObject({
  message_id: z.number(),
  date: z.number(),
  chat: z.looseObject({ id: z.number(), type: z.string().optional(), title: z.string().optional() }),
  from: TgUser.optional(),
  text: z.string().optional(),
  caption: z.string().optional(),
  message_thread_id: z.number().optional(),
  is_topic_message: z.boolean().optional(),
});
export type TgMessage = z.infer<typeof TgMessage>;

export const TgUpdate = z.looseObject({
  update_id: z.number(),
  message: TgMessage.optional(),
  channel_post: TgMessage.optional(),
});
export type TgUpdate = z.infer<typeof TgUpdate>;

/** Every Bot API answer: `{ok:true,result}` or `{ok:false,error_code,description,parameters}`. */
export const TgResponse = z.looseObject({
  ok: z.boolean(),
  result: z.unknown().optional(),
  error_code: z.number().optional(),
  description: z.string().optional(),
  parameters: z.looseObject({ retry_after: z.number().optional() }).optional(),
});
export type TgResponse = z.infer<typeof TgResponse>;

/** A Bot API call that did not succeed, keeping the code and the server's retry hint. */
export class TelegramApiError extends Error {
  override readonly name = 'TelegramApiError';
  constructor(
    readonly errorCode: number,
    readonly description: string,
    readonly retryAfterS?: number,
  ) {
    super(`telegram ${errorCode}: ${description}`);
  }
}

/** Telegram's per-message text limit, in UTF-16 code units (what JS string length counts). */
export const TG_TEXT_LIMIT = 4096;

/** Splits text into messages Telegram accepts, preferring line breaks. */
export function chunkText(text: string, limit = TG_TEXT_LIMIT): string[] {
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    let cut = rest.lastIndexOf('\n', limit);
    if (cut <= 0) cut = limit;
    chunks.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^\n/, '');
  }
  chunks.push(rest);
  return chunks;
}
