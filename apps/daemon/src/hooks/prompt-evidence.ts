import { z } from 'zod';

/**
 * Which typed submit a UserPromptSubmit is evidence of. A prompt hook's turn id cannot say (claude
 * repeats the previous prompt_id for a prompt it had queued; codex repeats the running turn's id
 * for a prompt steered into it), but its `prompt` is the text the runtime took in: a submit is
 * evidenced by the prompt that carries the submit's own first line (a delivery batch's header
 * names its event_id, so no other delivery's prompt carries it). Whitespace is compared loosely:
 * terminals and TUIs rewrite line ends and may trim.
 */

const MARKER_MAX = 240;

const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The part of a typed text that its prompt hook must carry: its first non-blank line, squashed. */
export function promptMarker(typed: string): string {
  const first = typed.split(/\r\n|\r|\n/).find((line) => line.trim() !== '') ?? '';
  return squash(first).slice(0, MARKER_MAX);
}

/** Whether a submitted prompt carries the marker of a typed text. */
export function promptCarries(prompt: string, marker: string): boolean {
  return marker !== '' && squash(prompt).includes(marker);
}

/** The `prompt` of a UserPromptSubmit payload, when the runtime reports one (read, never stored). */
export function submittedPrompt(payload: unknown): string | null {
  const parsed = promptPayload.safeParse(payload);
  return parsed.success ? parsed.data.prompt : null;
}

const promptPayload = z.looseObject({ prompt: z.string() });
