// Pure core of `cccc hook claude-state|codex-state`. Bundled into the self-contained hook entry,
// so it imports nothing: no zod, no op catalog (their load time is most of a hook's wall time).
// The daemon validates the request fully; this only keeps the request well-formed and private.

import { promptMarks } from '@cccc/ipc-protocol/node';

export type StateHookRuntime = 'claude' | 'codex';

/**
 * The identity and label fields of a provider payload that may leave the agent's process, with
 * their length limits: a dependency-free pick of the one payload schema, `RuntimeHookPayload` of
 * the op catalog (state-payload.test.ts and state-payload.property.test.ts hold them equal).
 * Prompts, commands, tool inputs/outputs and notification text are never copied.
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

export const IDENTITY_ENV = ['CCCC_HOME', 'CCCC_GROUP_ID', 'CCCC_ACTOR_ID', 'CCCC_HOOK_LAUNCH_TOKEN'] as const;
const MAX_TOKEN = 128;

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

/** Which identity variables are missing or blank. */
export function missingIdentity(env: NodeJS.ProcessEnv): string[] {
  return IDENTITY_ENV.filter((k) => !env[k]);
}

/** The one NDJSON request line (daemon IPC v1 envelope) for `runtime_hook_event`. */
export function stateRequestLine(runtime: StateHookRuntime, env: NodeJS.ProcessEnv, payload: StatePayload): { line: string } | { error: string } {
  const token = env.CCCC_HOOK_LAUNCH_TOKEN ?? '';
  if (token.length > MAX_TOKEN) return { error: 'launch_token' };
  // The process's start is when the agent ran the hook (a shell and node's start-up later).
  const args = { group_id: env.CCCC_GROUP_ID, actor_id: env.CCCC_ACTOR_ID, runtime, launch_token: token, payload, fired_at_ms: Math.round(performance.timeOrigin) };
  return { line: JSON.stringify({ v: 1, op: 'runtime_hook_event', args }) + '\n' };
}

/** The daemon's answer line: accepted, or why not (a fenced-out event or an error code). */
export function readStateAnswer(line: string): { accepted: true } | { accepted: false; reason: string } {
  let response: unknown;
  try {
    response = JSON.parse(line);
  } catch {
    return { accepted: false, reason: 'unreadable answer' };
  }
  const r = (typeof response === 'object' && response !== null ? response : {}) as {
    ok?: unknown;
    result?: { accepted?: unknown; reason?: unknown };
    error?: { code?: unknown; message?: unknown };
  };
  if (r.ok === true && r.result?.accepted === true) return { accepted: true };
  if (r.ok === true) return { accepted: false, reason: typeof r.result?.reason === 'string' ? r.result.reason : 'fenced' };
  return { accepted: false, reason: `${String(r.error?.code ?? 'error')}: ${String(r.error?.message ?? '')}` };
}
