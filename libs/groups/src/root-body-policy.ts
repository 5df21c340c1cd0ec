import { groupError } from './errors.js';

export const ROOT_BODY_MAX_CHARS = 500;
export const ROOT_BODY_MAX_LINES = 2;

export type RootBodyRule = 'max_chars' | 'max_lines' | 'fenced_code' | 'block_marker';

export interface RootBodyViolation {
  rule: RootBodyRule;
  message: string;
  limit?: number;
  actual?: number;
}

/**
 * The summary-body rule for root (non-reply) sends, `runtime-state-model.md` "Root Send
 * Protocol": at most 500 characters, at most 2 lines, no fenced code, and no line starting
 * with a markdown heading or list marker (`#`, `-`, `*`, after indentation). Trailing blank
 * lines do not count. Returns the first violation, or undefined.
 */
export function rootBodyViolation(text: string): RootBodyViolation | undefined {
  const body = text.replace(/\s+$/, '');
  const chars = [...body].length;
  if (chars > ROOT_BODY_MAX_CHARS) {
    return { rule: 'max_chars', message: `a root message body is a short summary (≤ ${ROOT_BODY_MAX_CHARS} characters)`, limit: ROOT_BODY_MAX_CHARS, actual: chars };
  }
  const lines = body.split(/\r?\n/);
  if (lines.length > ROOT_BODY_MAX_LINES) {
    return { rule: 'max_lines', message: `a root message body has at most ${ROOT_BODY_MAX_LINES} lines`, limit: ROOT_BODY_MAX_LINES, actual: lines.length };
  }
  if (/```|~~~/.test(body)) return { rule: 'fenced_code', message: 'put code in an attachment, not in a root message body' };
  if (lines.some((l) => /^\s*[#*-]/.test(l))) {
    return { rule: 'block_marker', message: 'a root message body is plain summary text, without markdown headings or lists' };
  }
  return undefined;
}

/**
 * Enforce `messaging.root_body_policy: "summary"` for a new send: replies are exempt, and so
 * is every message when the policy is off. Throws `root_body_not_summary` with `details.rule`.
 */
export function assertRootBodyPolicy(policy: 'off' | 'summary' | undefined, message: { text: string; reply_to?: string | null }): void {
  if (policy !== 'summary' || message.reply_to) return;
  const violation = rootBodyViolation(message.text);
  if (violation) {
    const { message: why, ...details } = violation;
    throw groupError('root_body_not_summary', `${why}; move details into an attachment or artifact`, { ...details });
  }
}
