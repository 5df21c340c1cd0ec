import type { ImThreadId } from '../adapter.js';

/**
 * Normalizes a platform thread id the way §8.16 asks: numbers stay numbers, strings stay
 * strings byte for byte (a Slack `1710000000.100` is never parsed as a float), and
 * null/empty/0/"0" or any other JSON type mean "no thread" (0). A digit string stays a string
 * too: "never coerced through a number" leaves no exception.
 */
export function normalizeThreadId(value: unknown): ImThreadId {
  if (typeof value === 'number') return Number.isFinite(value) && Number.isInteger(value) ? value : String(value);
  if (typeof value !== 'string') return 0;
  const text = value.trim();
  return text === '' || text === '0' ? 0 : text;
}

/** The persisted key of a delivery target: `<chat_id>` or `<chat_id>:<thread_id>` (reference shape). */
export function threadKey(chatId: string, threadId: unknown = 0): string {
  const cid = chatId.trim();
  if (cid === '') return '';
  const tid = normalizeThreadId(threadId);
  return tid === 0 ? cid : `${cid}:${tid}`;
}
