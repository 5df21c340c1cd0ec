import type { DaemonResponseV1 } from '@cccc/ipc-protocol';
import { pickStatePayload } from '@cccc/ipc-protocol/node';

// Pure core of the loopback HTTP hook listener (issue 35): a Claude Code http hook's POST becomes
// the very `runtime_hook_event` request the command hook (`cccc hook claude-state`) sends, picked
// by the same `pickStatePayload`, and the op's answer becomes an HTTP status Claude understands.
// Claude treats any non-2xx answer as a non-blocking hook error, so a refusal never stalls the
// agent; a 2xx answer's JSON body is read as hook output, and `{}` asks for nothing.

/** The one path the listener serves; the runtime is fixed (only Claude Code has http hooks). */
export const HOOK_HTTP_PATH = '/hooks/claude-state';
/** Headers Claude interpolates from the agent's environment (never the URL: URLs get logged). */
export const HOOK_HTTP_HEADERS = {
  groupId: 'x-cccc-group-id',
  actorId: 'x-cccc-actor-id',
  launchToken: 'x-cccc-launch-token',
} as const;
/** The agent-side variables behind the headers (also the hook's `allowedEnvVars`). */
export const HOOK_HTTP_ENV = { groupId: 'CCCC_GROUP_ID', actorId: 'CCCC_ACTOR_ID', launchToken: 'CCCC_HOOK_LAUNCH_TOKEN' } as const;
/** The command hook's stdin cap: an event too large for one is too large for the other. */
export const HOOK_HTTP_MAX_BODY = 1024 * 1024;
const MAX_ID = 256;
const MAX_TOKEN = 128;

export interface HookHttpAnswer {
  readonly status: number;
  /** A short, secret-free reason (a code or a fence's reason), also what the daemon logs. */
  readonly reason: string;
}

export type HookHttpHead = { readonly method: string | undefined; readonly url: string | undefined; readonly headers: Readonly<Record<string, string | string[] | undefined>> };

/** A request refused before its body is read (method, path, identity headers), else null. */
export function refuseHead(head: HookHttpHead): HookHttpAnswer | null {
  const path = (head.url ?? '').split('?')[0];
  if (path !== HOOK_HTTP_PATH) return { status: 404, reason: 'unknown_path' };
  if (head.method !== 'POST') return { status: 405, reason: 'method_not_allowed' };
  const ids = identityOf(head.headers);
  if ('error' in ids) return { status: 401, reason: ids.error };
  const length = Number(head.headers['content-length']);
  if (Number.isFinite(length) && length > HOOK_HTTP_MAX_BODY) return { status: 413, reason: 'body_too_large' };
  return null;
}

type Identity = { groupId: string; actorId: string; launchToken: string };

function header(headers: HookHttpHead['headers'], name: string): string {
  const v = headers[name];
  return typeof v === 'string' ? v.trim() : '';
}

/** The three identity headers, present, single and within the op's limits. */
export function identityOf(headers: HookHttpHead['headers']): Identity | { error: string } {
  const groupId = header(headers, HOOK_HTTP_HEADERS.groupId);
  const actorId = header(headers, HOOK_HTTP_HEADERS.actorId);
  const launchToken = header(headers, HOOK_HTTP_HEADERS.launchToken);
  // An uninterpolated `$VAR` means the agent's environment lacked it: no identity.
  if (!groupId || groupId.length > MAX_ID || groupId.startsWith('$')) return { error: 'missing_group_id' };
  if (!actorId || actorId.length > MAX_ID || actorId.startsWith('$')) return { error: 'missing_actor_id' };
  if (!launchToken || launchToken.length > MAX_TOKEN || launchToken.startsWith('$')) return { error: 'missing_launch_token' };
  return { groupId, actorId, launchToken };
}

/** The `runtime_hook_event` request of one hook POST, or the 4xx answer of a malformed one. */
export function hookEventRequest(head: HookHttpHead, body: string, receivedAtMs: number): { request: { v: 1; op: 'runtime_hook_event'; args: Record<string, unknown> } } | { answer: HookHttpAnswer } {
  const ids = identityOf(head.headers);
  if ('error' in ids) return { answer: { status: 401, reason: ids.error } };
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return { answer: { status: 400, reason: 'body_not_json' } };
  }
  const picked = pickStatePayload(raw);
  if ('error' in picked) return { answer: { status: 400, reason: `bad_payload: ${picked.error}` } };
  const args = { group_id: ids.groupId, actor_id: ids.actorId, runtime: 'claude', launch_token: ids.launchToken, payload: picked.payload, fired_at_ms: receivedAtMs };
  return { request: { v: 1, op: 'runtime_hook_event', args } };
}

/** Fence refusals that say the caller is not the live hooked launch. */
const NOT_THE_LAUNCH = new Set(['launch_token_mismatch', 'no_hooked_launch']);
const NOT_FOUND = new Set(['group_not_found', 'actor_not_found']);

/** The op's answer as an HTTP status: 200 committed, 4xx refused (nothing committed), 5xx ours. */
export function answerOf(response: DaemonResponseV1): HookHttpAnswer {
  if (!response.ok) {
    const code = response.error?.code ?? 'error';
    if (NOT_FOUND.has(code)) return { status: 404, reason: code };
    if (code === 'invalid_request' || code === 'missing_group_id' || code === 'missing_actor_id') return { status: 400, reason: code };
    if (code === 'internal_error') return { status: 500, reason: code };
    return { status: 409, reason: code };
  }
  const result = (response.result ?? {}) as { accepted?: unknown; reason?: unknown };
  if (result.accepted === true) return { status: 200, reason: 'accepted' };
  const reason = typeof result.reason === 'string' ? result.reason : 'fenced';
  if (NOT_THE_LAUNCH.has(reason)) return { status: 403, reason };
  if (reason.startsWith('bad_payload')) return { status: 400, reason };
  // A stale or out-of-order event of the right launch: refused by the fence, nothing stored.
  return { status: 409, reason };
}
