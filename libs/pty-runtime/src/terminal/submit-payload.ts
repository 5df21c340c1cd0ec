import type { SubmitMode } from './types.js';

export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';

/** Trailing newlines would submit early (or twice) in most TUIs: the submit key does that. */
export function stripTrailingNewlines(text: string): string {
  return text.replace(/[\r\n]+$/u, '');
}

/** The payload of REFERENCE_NOTES §3.3: wrapped in paste markers only when the app asked for them. */
export function buildPastePayload(text: string, bracketedPaste: boolean): string {
  const body = stripTrailingNewlines(text);
  if (body === '') return '';
  return bracketedPaste ? PASTE_START + body + PASTE_END : body;
}

/** The submit key of a mode: enter = CR, newline = LF, none = nothing. */
export function submitKey(mode: SubmitMode): string {
  return mode === 'enter' ? '\r' : mode === 'newline' ? '\n' : '';
}
