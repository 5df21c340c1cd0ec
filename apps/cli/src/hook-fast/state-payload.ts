// Pure core of `cccc hook claude-state|codex-state`. Bundled into the self-contained hook entry,
// so it imports nothing: no zod, no op catalog (their load time is most of a hook's wall time).
// The daemon validates the request fully; this only keeps the request well-formed and private.

import { PAYLOAD_FIELDS, pickStatePayload, type StatePayload } from '@cccc/ipc-protocol/call';

// The pick itself lives in ipc-protocol: the daemon's HTTP hook listener applies the same one.
export { PAYLOAD_FIELDS, pickStatePayload, type StatePayload };

export type StateHookRuntime = 'claude' | 'codex';

export const IDENTITY_ENV = ['CCCC_HOME', 'CCCC_GROUP_ID', 'CCCC_ACTOR_ID', 'CCCC_HOOK_LAUNCH_TOKEN'] as const;
const MAX_TOKEN = 128;

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
