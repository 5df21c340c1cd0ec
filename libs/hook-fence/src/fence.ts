import { FENCE_HISTORY_CAP, type HookState, type HookStatus } from './hook-state.js';
import type { HookEvent } from './payloads.js';

/** Who sent the event and which process the daemon believes is running. */
export interface FenceContext {
  /** `CCCC_HOOK_LAUNCH_TOKEN` of the hook process. */
  launchToken: string;
  /** pid in the committed launch record. */
  launchPid: number | null;
  /** pid of the PTY child that is alive right now (null when none). */
  livePid: number | null;
  now: string;
}

export type FenceRejection =
  | 'launch_token_mismatch'
  | 'pid_mismatch'
  | 'session_closed'
  | 'unexpected_session_start'
  | 'awaiting_session_start'
  | 'session_mismatch'
  | 'turn_mismatch'
  | 'stale_turn'
  | 'turn_fence_exhausted'
  | 'operation_open'
  | 'operation_mismatch'
  | 'stale_operation'
  | 'operation_fence_exhausted';

export type FenceResult = { accepted: true; state: HookState } | { accepted: false; reason: FenceRejection; state: HookState };

const WAITING_NOTIFICATIONS = new Set(['permission_prompt', 'elicitation_dialog', 'agent_needs_input']);
const IDLE_NOTIFICATIONS = new Set(['idle_prompt', 'agent_completed']);

/**
 * Apply one parsed hook event to the actor's hook state. Pure: the caller persists the accepted
 * state (and the activity derived from the same transition) under one per-actor lock. A rejected
 * event leaves the state untouched except where a fence exhausts, which is itself recorded so it
 * stays closed.
 */
export function applyHookEvent(state: HookState, ev: HookEvent, ctx: FenceContext): FenceResult {
  const reject = (reason: FenceRejection, next: HookState = state): FenceResult => ({ accepted: false, reason, state: next });
  if (ctx.launchToken !== state.launch_token) return reject('launch_token_mismatch');
  if (ctx.launchPid === null || ctx.livePid === null || ctx.launchPid !== ctx.livePid) return reject('pid_mismatch');
  if (state.session_closed) return reject('session_closed');
  const base = { ...state, event: ev.event, updated_at: ctx.now, diagnostic: null };
  const ok = (patch: Partial<HookState>): FenceResult => ({ accepted: true, state: { ...base, ...patch } });

  if (ev.event === 'SessionStart') {
    if (!state.awaiting_session_start) return reject('unexpected_session_start');
    return ok({ session_id: ev.sessionId, awaiting_session_start: false, status: 'idle' });
  }
  if (state.awaiting_session_start) return reject('awaiting_session_start');
  if (ev.sessionId !== state.session_id) return reject('session_mismatch');
  if (ev.event === 'SessionEnd') return ok({ status: 'stopped', session_closed: true, operation_id: null });
  return ev.runtime === 'codex' ? applyCodex(state, ev, ok, reject) : applyClaude(state, ev, ok, reject);
}

type Ok = (patch: Partial<HookState>) => FenceResult;
type Reject = (reason: FenceRejection, next?: HookState) => FenceResult;

/** Open a new turn identity, failing closed once the history is full. */
function openTurn(state: HookState, turnId: string, ok: Ok, reject: Reject, status: HookStatus): FenceResult {
  if (state.turn_fence_exhausted) return reject('turn_fence_exhausted');
  if (state.seen_turn_ids.includes(turnId)) return reject('stale_turn');
  if (state.seen_turn_ids.length >= FENCE_HISTORY_CAP) {
    return reject('turn_fence_exhausted', { ...state, turn_fence_exhausted: true, diagnostic: 'turn_fence_exhausted' });
  }
  return ok({
    status,
    turn_id: turnId,
    operation_id: null,
    interrupted: false,
    turn_generation: state.turn_generation + 1,
    seen_turn_ids: [...state.seen_turn_ids, turnId],
  });
}

/**
 * A prompt submitted while its turn's id is still the current one: the runtime took a prompt it
 * had queued (claude, typed while the last turn's Stop hooks ran or while a turn still ran) or
 * steered it into the running turn (codex), and its UserPromptSubmit repeats that turn's id. It
 * is still a submitted prompt, so it is accepted as working; only an id older than the current
 * turn is stale. Claude counts it as a turn of its own (its Stop follows under a new id), codex
 * keeps the running turn.
 */
function promptInCurrentTurn(state: HookState, ok: Ok, newGeneration: boolean): FenceResult {
  if (!newGeneration) return ok({ status: 'working' });
  return ok({ status: 'working', operation_id: null, interrupted: false, turn_generation: state.turn_generation + 1 });
}

/**
 * Claude may name a turn by a prompt_id no prompt hook announced (the Stop of a queued prompt
 * whose UserPromptSubmit repeated the previous id): an unseen id cannot be an older turn's, so it
 * becomes the current turn's identity. A seen id other than the current one is an older turn's.
 */
function adoptClaudeTurn(state: HookState, turnId: string): { state: HookState } | { reason: FenceRejection } {
  if (turnId === state.turn_id) return { state };
  if (state.seen_turn_ids.includes(turnId)) return { reason: 'turn_mismatch' };
  if (state.turn_fence_exhausted || state.seen_turn_ids.length >= FENCE_HISTORY_CAP) return { reason: 'turn_fence_exhausted' };
  return { state: { ...state, turn_id: turnId, seen_turn_ids: [...state.seen_turn_ids, turnId] } };
}

function openOperation(state: HookState, toolUseId: string, ok: Ok, reject: Reject): FenceResult {
  if (state.operation_fence_exhausted) return reject('operation_fence_exhausted');
  if (state.seen_operation_ids.includes(toolUseId)) return reject('stale_operation');
  if (state.seen_operation_ids.length >= FENCE_HISTORY_CAP) {
    return reject('operation_fence_exhausted', {
      ...state,
      operation_fence_exhausted: true,
      diagnostic: 'operation_fence_exhausted',
    });
  }
  return ok({ status: 'working', operation_id: toolUseId, seen_operation_ids: [...state.seen_operation_ids, toolUseId] });
}

function notificationStatus(type: string | null): HookStatus | null {
  if (type && WAITING_NOTIFICATIONS.has(type)) return 'waiting';
  if (type && IDLE_NOTIFICATIONS.has(type)) return 'idle';
  return null;
}

/** Codex: exact turn and operation fences. */
function applyCodex(state: HookState, ev: HookEvent, ok: Ok, reject: Reject): FenceResult {
  if (ev.event === 'UserPromptSubmit') {
    if (!ev.turnId) return reject('turn_mismatch');
    if (ev.turnId === state.turn_id) return promptInCurrentTurn(state, ok, false);
    return openTurn(state, ev.turnId, ok, reject, 'working');
  }
  if (!ev.turnId || ev.turnId !== state.turn_id) return reject('turn_mismatch');
  switch (ev.event) {
    case 'PreToolUse':
      if (state.operation_id !== null) return reject('operation_open');
      if (!ev.toolUseId) return reject('operation_mismatch');
      return openOperation(state, ev.toolUseId, ok, reject);
    case 'PostToolUse':
    case 'PostToolUseFailure':
      if (!ev.toolUseId || ev.toolUseId !== state.operation_id) return reject('operation_mismatch');
      return ok({ status: 'working', operation_id: null });
    case 'PermissionRequest':
      // Codex (0.169) names no tool_use_id here: its approval prompt is about the current turn's
      // open operation. An id, when given, must still be that operation's.
      if (ev.toolUseId && ev.toolUseId !== state.operation_id) return reject('operation_mismatch');
      return ok({ status: 'waiting' });
    case 'Stop':
    case 'StopFailure':
      return ok({ status: 'idle', operation_id: null });
    case 'SubagentStart':
    case 'SubagentStop':
      return ok({ status: 'working' });
    case 'Notification':
      return ok({ status: notificationStatus(ev.notificationType) ?? state.status });
    default:
      return ok({});
  }
}

/**
 * Claude: a prompt (or an open tool use with its stable id) is working, a permission prompt is
 * waiting, Stop or idle_prompt is idle. `prompt_id`, when the payload has one, is the turn
 * identity, but not a stable one (see `adoptClaudeTurn`): an event naming an older turn than the
 * current one is stale.
 */
function applyClaude(state: HookState, ev: HookEvent, ok: Ok, reject: Reject): FenceResult {
  if (ev.event === 'UserPromptSubmit') {
    if (ev.turnId && ev.turnId === state.turn_id) return promptInCurrentTurn(state, ok, true);
    return openTurn(state, ev.turnId ?? `local:${state.turn_generation + 1}`, ok, reject, 'working');
  }
  if (ev.turnId && state.turn_id !== null && ev.turnId !== state.turn_id) {
    const adopted = adoptClaudeTurn(state, ev.turnId);
    if ('reason' in adopted) return reject(adopted.reason);
    return applyClaudeInTurn(adopted.state, ev, (patch) => ok({ turn_id: adopted.state.turn_id, seen_turn_ids: adopted.state.seen_turn_ids, ...patch }), reject);
  }
  return applyClaudeInTurn(state, ev, ok, reject);
}

function applyClaudeInTurn(state: HookState, ev: HookEvent, ok: Ok, reject: Reject): FenceResult {
  switch (ev.event) {
    case 'PreToolUse':
      if (!ev.toolUseId) return reject('operation_mismatch');
      return openOperation(state, ev.toolUseId, ok, reject);
    case 'PostToolUse':
    case 'PostToolUseFailure':
      // Claude runs tools in parallel: any tool it opened may close; only the latest is tracked.
      if (!ev.toolUseId || !state.seen_operation_ids.includes(ev.toolUseId)) return reject('operation_mismatch');
      return ok({ status: 'working', operation_id: ev.toolUseId === state.operation_id ? null : state.operation_id });
    case 'PermissionRequest':
      return ok({ status: 'waiting' });
    case 'Stop':
    case 'StopFailure':
      return ok({ status: 'idle', operation_id: null });
    case 'Notification':
      return ok({ status: notificationStatus(ev.notificationType) ?? state.status });
    default:
      return ok({});
  }
}

/** Ctrl-C or a lone ESC typed into the PTY: the turn is over without a hook. */
export function applyInterrupt(state: HookState, now: string): HookState {
  if (state.session_closed || state.awaiting_session_start) return state;
  return { ...state, status: 'idle', interrupted: true, operation_id: null, event: 'Interrupt', updated_at: now };
}
