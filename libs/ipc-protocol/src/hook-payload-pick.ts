// The one pick of a provider hook payload, shared by both hook transports: `cccc hook
// claude-state|codex-state` (bundled inline, so this imports nothing but the dependency-free prompt
// marks: no zod, no op catalog) and the daemon's loopback HTTP hook listener, which receives the
// provider's raw payload and must keep exactly what the command hook would have sent.

import { promptMarks } from './prompt-marks.js';

/**
 * The identity and label fields of a provider payload that may leave the agent's process, with
 * their length limits: a dependency-free pick of the one payload schema, `RuntimeHookPayload` of
 * the op catalog (apps/cli state-payload.test.ts and state-payload.property.test.ts hold them
 * equal). Prompts, commands, tool inputs/outputs and notification text are never copied.
 */
export const PAYLOAD_FIELDS = {
  hook_event_name: { min: 1, max: 64, required: true },
  session_id: { min: 1, max: 256, required: true },
  turn_id: { min: 1, max: 256, required: false },
  prompt_id: { min: 1, max: 256, required: false },
  tool_use_id: { min: 1, max: 256, required: false },
  tool_name: { min: 0, max: 256, required: false },
  notification_type: { min: 0, max: 64, required: false },
  agent_id: { min: 1, max: 256, required: false },
} as const;

export type StatePayload = Partial<Record<keyof typeof PAYLOAD_FIELDS, string>> & { prompt_marks?: string[] };

/**
 * Copy the allowed string fields of `raw`; the error names the first failing field. A
 * UserPromptSubmit's prompt never leaves: only its line marks do (`promptMarks`), so the daemon
 * can tell which typed deliveries the prompt took in.
 */
export function pickStatePayload(raw: unknown): { payload: StatePayload } | { error: string } {
  const source = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const payload: StatePayload = {};
  for (const [key, rule] of Object.entries(PAYLOAD_FIELDS) as [keyof typeof PAYLOAD_FIELDS, (typeof PAYLOAD_FIELDS)[keyof typeof PAYLOAD_FIELDS]][]) {
    const value = source[key];
    if (typeof value !== 'string') {
      if (rule.required) return { error: `payload.${key}` };
      continue;
    }
    if (value.length < rule.min || value.length > rule.max) return { error: `payload.${key}` };
    payload[key] = value;
  }
  if (payload.hook_event_name === 'UserPromptSubmit' && typeof source.prompt === 'string') payload.prompt_marks = promptMarks(source.prompt);
  return { payload };
}
