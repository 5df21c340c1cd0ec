/**
 * Prompt marks: how a UserPromptSubmit hook tells the daemon which typed submits its prompt took
 * in without the prompt's text ever leaving the agent's process. The hook sends a short digest of
 * each distinct line of the prompt (whitespace squashed); the daemon computes the digest of the
 * first line it typed for each delivery (whose header names the event id) and looks it up. The
 * digests are read to match and never stored. Dependency-free: `cccc hook`'s bundle inlines it.
 */

/** A line is compared on at most this many characters (after squashing whitespace). */
export const PROMPT_LINE_MAX = 240;
/** Distinct lines of one prompt that get a mark (a long prompt's later lines are not needed). */
export const MAX_PROMPT_MARKS = 1024;
export const PROMPT_MARK_PATTERN = /^[0-9a-f]{16}$/;

/** A line as compared: runs of whitespace as one space, trimmed, capped. Terminals rewrite spacing. */
export function squashLine(line: string): string {
  return line.replace(/\s+/g, ' ').trim().slice(0, PROMPT_LINE_MAX);
}

/** 64 bits of two FNV-1a variants over the UTF-16 code units, as 16 hex digits. */
export function markOfLine(squashed: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x9e3779b9;
  for (let i = 0; i < squashed.length; i++) {
    const c = squashed.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** The marks of a prompt: one per distinct non-blank line, in order, at most MAX_PROMPT_MARKS. */
export function promptMarks(prompt: string): string[] {
  const marks = new Set<string>();
  for (const line of prompt.split(/\r\n|\r|\n/)) {
    const squashed = squashLine(line);
    if (squashed === '') continue;
    marks.add(markOfLine(squashed));
    if (marks.size >= MAX_PROMPT_MARKS) break;
  }
  return [...marks];
}

/** The mark a typed text's prompt must carry: that of its first non-blank line, or '' for none. */
export function typedMark(typed: string): string {
  const first = typed.split(/\r\n|\r|\n/).find((line) => line.trim() !== '');
  return first === undefined ? '' : markOfLine(squashLine(first));
}
