// Post-render text shaping shared by terminal_tail and terminal_history. It only ever touches
// rendered text, never the raw byte stream (cutting raw ANSI corrupts the replay).

/** compact: right-trim lines, collapse blank-line runs, drop blank lines at both ends. */
export function compactLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of lines) {
    const line = raw.replace(/\s+$/u, '');
    if (line === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}

/** Trailing blank screen rows are not output; keep text ending at the last written line. */
export function trimTrailingBlank(lines: readonly string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === '') end--;
  return lines.slice(0, end);
}

/**
 * Keep the last `maxChars` Unicode characters. Plain text is cut anywhere (at a code point);
 * ANSI text is cut at the next line start so no escape sequence is split.
 */
export function keepLastChars(text: string, maxChars: number, ansi: boolean): string {
  if (text.length <= maxChars) return text; // UTF-16 length ≥ code points
  // Only the end matters: split at most 2×maxChars UTF-16 units instead of the whole text.
  const chars = Array.from(text.slice(-2 * maxChars));
  if (chars.length <= maxChars && text.length <= 2 * maxChars) return text;
  let tail = chars.slice(Math.max(0, chars.length - maxChars)).join('');
  if (ansi) {
    const nl = tail.indexOf('\n');
    tail = nl >= 0 ? tail.slice(nl + 1) : '';
  }
  return tail;
}

/** Drop escape sequences from already-serialized text (the plain renderer rarely needs it). */
export function stripAnsi(text: string): string {
  // CSI, OSC (BEL or ST terminated), and two-byte escapes.
  return text.replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/gu, '');
}
