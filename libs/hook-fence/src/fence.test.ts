import { describe, expect, it } from 'vitest';
import { applyHookEvent, applyInterrupt, type FenceContext, type FenceResult } from './fence.js';
import { FENCE_HISTORY_CAP, pendingHookState, type HookState } from './hook-state.js';
import type { HookEvent, HookRuntime } from './payloads.js';

const ctx: FenceContext = { launchToken: 'tok', launchPid: 10, livePid: 10, now: '2026-01-01T00:00:00Z' };
const ev = (runtime: HookRuntime, event: HookEvent['event'], extra: Partial<HookEvent> = {}): HookEvent => ({
  runtime,
  event,
  sessionId: 's1',
  turnId: null,
  toolUseId: null,
  toolName: null,
  notificationType: null,
  agentId: null,
  ...extra,
});
const accepted = (r: FenceResult): HookState => {
  if (!r.accepted) throw new Error(`rejected: ${r.reason}`);
  return r.state;
};
const started = (runtime: HookRuntime): HookState =>
  accepted(applyHookEvent(pendingHookState({ runtime, groupId: 'g', actorId: 'a', launchToken: 'tok', now: 'T0' }), ev(runtime, 'SessionStart'), ctx));

describe('launch, pid and session fences', () => {
  it('rejects a foreign launch token and a pid that is not the live PTY child', () => {
    const s = started('codex');
    expect(applyHookEvent(s, ev('codex', 'Stop'), { ...ctx, launchToken: 'old' })).toMatchObject({ accepted: false, reason: 'launch_token_mismatch' });
    expect(applyHookEvent(s, ev('codex', 'Stop'), { ...ctx, livePid: 11 })).toMatchObject({ accepted: false, reason: 'pid_mismatch' });
    expect(applyHookEvent(s, ev('codex', 'Stop'), { ...ctx, livePid: null })).toMatchObject({ accepted: false, reason: 'pid_mismatch' });
    expect(applyHookEvent(s, ev('codex', 'Stop'), { ...ctx, launchPid: null })).toMatchObject({ accepted: false, reason: 'pid_mismatch' });
  });

  it('accepts SessionStart only while awaiting it, then holds to that session', () => {
    const pending = pendingHookState({ runtime: 'claude', groupId: 'g', actorId: 'a', launchToken: 'tok', now: 'T0' });
    expect(applyHookEvent(pending, ev('claude', 'UserPromptSubmit'), ctx)).toMatchObject({ reason: 'awaiting_session_start' });
    const s = started('claude');
    expect(s).toMatchObject({ status: 'idle', session_id: 's1', awaiting_session_start: false, updated_at: ctx.now });
    expect(applyHookEvent(s, ev('claude', 'SessionStart'), ctx)).toMatchObject({ reason: 'unexpected_session_start' });
    expect(applyHookEvent(s, ev('claude', 'Stop', { sessionId: 's2' }), ctx)).toMatchObject({ reason: 'session_mismatch' });
  });

  it('SessionEnd stops and closes the session; nothing counts after it', () => {
    const end = accepted(applyHookEvent(started('codex'), ev('codex', 'SessionEnd'), ctx));
    expect(end).toMatchObject({ status: 'stopped', session_closed: true });
    expect(applyHookEvent(end, ev('codex', 'Stop'), ctx)).toMatchObject({ accepted: false, reason: 'session_closed' });
  });
});

describe('codex turn and operation fences', () => {
  const inTurn = () => accepted(applyHookEvent(started('codex'), ev('codex', 'UserPromptSubmit', { turnId: 't1' }), ctx));

  it('a new turn id opens a turn: working, generation +1; an older turn\'s id is stale', () => {
    const s = inTurn();
    expect(s).toMatchObject({ status: 'working', turn_id: 't1', turn_generation: 1, seen_turn_ids: ['t1'] });
    const t2 = accepted(applyHookEvent(s, ev('codex', 'UserPromptSubmit', { turnId: 't2' }), ctx));
    expect(applyHookEvent(t2, ev('codex', 'UserPromptSubmit', { turnId: 't1' }), ctx)).toMatchObject({ reason: 'stale_turn' });
    expect(applyHookEvent(t2, ev('codex', 'UserPromptSubmit'), ctx)).toMatchObject({ reason: 'turn_mismatch' });
  });

  it('a prompt steered into the running turn repeats its id: accepted as working, the turn and its operation kept', () => {
    const op = accepted(applyHookEvent(inTurn(), ev('codex', 'PreToolUse', { turnId: 't1', toolUseId: 'o1' }), ctx));
    const steered = accepted(applyHookEvent(op, ev('codex', 'UserPromptSubmit', { turnId: 't1' }), ctx));
    expect(steered).toMatchObject({ status: 'working', turn_id: 't1', turn_generation: 1, operation_id: 'o1', seen_turn_ids: ['t1'] });
    const idle = accepted(applyHookEvent(steered, ev('codex', 'Stop', { turnId: 't1' }), ctx));
    expect(accepted(applyHookEvent(idle, ev('codex', 'UserPromptSubmit', { turnId: 't1' }), ctx)).status).toBe('working');
  });

  it('events of another turn are rejected', () => {
    expect(applyHookEvent(inTurn(), ev('codex', 'PreToolUse', { turnId: 't0', toolUseId: 'o1' }), ctx)).toMatchObject({ reason: 'turn_mismatch' });
  });

  it('PreToolUse opens one operation; post and permission must match it', () => {
    const s = accepted(applyHookEvent(inTurn(), ev('codex', 'PreToolUse', { turnId: 't1', toolUseId: 'o1' }), ctx));
    expect(s).toMatchObject({ operation_id: 'o1', status: 'working' });
    expect(applyHookEvent(s, ev('codex', 'PreToolUse', { turnId: 't1', toolUseId: 'o2' }), ctx)).toMatchObject({ reason: 'operation_open' });
    expect(applyHookEvent(s, ev('codex', 'PostToolUse', { turnId: 't1', toolUseId: 'o2' }), ctx)).toMatchObject({ reason: 'operation_mismatch' });
    const waiting = accepted(applyHookEvent(s, ev('codex', 'PermissionRequest', { turnId: 't1', toolUseId: 'o1' }), ctx));
    expect(waiting.status).toBe('waiting');
    const done = accepted(applyHookEvent(waiting, ev('codex', 'PostToolUse', { turnId: 't1', toolUseId: 'o1' }), ctx));
    expect(done).toMatchObject({ operation_id: null, status: 'working' });
    expect(applyHookEvent(done, ev('codex', 'PreToolUse', { turnId: 't1', toolUseId: 'o1' }), ctx)).toMatchObject({ reason: 'stale_operation' });
  });

  it('a codex PermissionRequest without a tool_use_id (what codex 0.169 sends) asks about the open operation of its turn', () => {
    const s = accepted(applyHookEvent(inTurn(), ev('codex', 'PreToolUse', { turnId: 't1', toolUseId: 'o1' }), ctx));
    expect(accepted(applyHookEvent(s, ev('codex', 'PermissionRequest', { turnId: 't1' }), ctx))).toMatchObject({ status: 'waiting', operation_id: 'o1' });
    expect(applyHookEvent(s, ev('codex', 'PermissionRequest', { turnId: 't1', toolUseId: 'o2' }), ctx)).toMatchObject({ reason: 'operation_mismatch' });
    expect(applyHookEvent(s, ev('codex', 'PermissionRequest', { turnId: 't0' }), ctx)).toMatchObject({ reason: 'turn_mismatch' });
  });

  it('maps notifications and Stop to the status table', () => {
    const s = inTurn();
    const n = (type: string) => accepted(applyHookEvent(s, ev('codex', 'Notification', { turnId: 't1', notificationType: type }), ctx)).status;
    expect(n('permission_prompt')).toBe('waiting');
    expect(n('elicitation_dialog')).toBe('waiting');
    expect(n('agent_needs_input')).toBe('waiting');
    expect(n('idle_prompt')).toBe('idle');
    expect(n('agent_completed')).toBe('idle');
    expect(n('other')).toBe('working');
    expect(accepted(applyHookEvent(s, ev('codex', 'StopFailure', { turnId: 't1' }), ctx)).status).toBe('idle');
    expect(accepted(applyHookEvent(s, ev('codex', 'SubagentStart', { turnId: 't1', agentId: 'x' }), ctx)).status).toBe('working');
  });

  it('the 4096-id caps fail closed and stay closed', () => {
    const full = { ...started('codex'), seen_turn_ids: Array.from({ length: FENCE_HISTORY_CAP }, (_, i) => `old${i}`) };
    const r = applyHookEvent(full, ev('codex', 'UserPromptSubmit', { turnId: 'new' }), ctx);
    expect(r).toMatchObject({ accepted: false, reason: 'turn_fence_exhausted' });
    expect(r.state).toMatchObject({ turn_fence_exhausted: true, diagnostic: 'turn_fence_exhausted' });
    const trimmed = { ...r.state, seen_turn_ids: [] };
    expect(applyHookEvent(trimmed, ev('codex', 'UserPromptSubmit', { turnId: 'n2' }), ctx)).toMatchObject({ reason: 'turn_fence_exhausted' });

    const s = inTurn();
    const ops = { ...s, seen_operation_ids: Array.from({ length: FENCE_HISTORY_CAP }, (_, i) => `op${i}`) };
    const o = applyHookEvent(ops, ev('codex', 'PreToolUse', { turnId: 't1', toolUseId: 'fresh' }), ctx);
    expect(o).toMatchObject({ accepted: false, reason: 'operation_fence_exhausted' });
    expect(o.state.operation_fence_exhausted).toBe(true);
    expect(applyHookEvent({ ...o.state, seen_operation_ids: [] }, ev('codex', 'PreToolUse', { turnId: 't1', toolUseId: 'f2' }), ctx)).toMatchObject({
      reason: 'operation_fence_exhausted',
    });
  });
});

describe('claude state rules', () => {
  it('UserPromptSubmit → working with prompt_id as the turn identity, else a local turn', () => {
    const s = accepted(applyHookEvent(started('claude'), ev('claude', 'UserPromptSubmit', { turnId: 'p1' }), ctx));
    expect(s).toMatchObject({ status: 'working', turn_id: 'p1', turn_generation: 1 });
    const local = accepted(applyHookEvent(started('claude'), ev('claude', 'UserPromptSubmit'), ctx));
    expect(local.turn_id).toBe('local:1');
    const p2 = accepted(applyHookEvent(s, ev('claude', 'UserPromptSubmit', { turnId: 'p2' }), ctx));
    expect(applyHookEvent(p2, ev('claude', 'Stop', { turnId: 'p1' }), ctx)).toMatchObject({ reason: 'turn_mismatch' });
    expect(applyHookEvent(p2, ev('claude', 'UserPromptSubmit', { turnId: 'p1' }), ctx)).toMatchObject({ reason: 'stale_turn' });
  });

  // What claude 2.1.328 does with a prompt typed while the last turn's Stop hooks still run
  // (tools/src/real-clis/claude-tui.test.ts): it queues it, its UserPromptSubmit repeats the
  // previous prompt_id, and the Stop of its turn carries a new one.
  it('a queued prompt repeating the current prompt_id is a new turn; its Stop under a new id is adopted', () => {
    const p1 = accepted(applyHookEvent(started('claude'), ev('claude', 'UserPromptSubmit', { turnId: 'p1' }), ctx));
    const stopped = accepted(applyHookEvent(p1, ev('claude', 'Stop', { turnId: 'p1' }), ctx));
    const queued = accepted(applyHookEvent(stopped, ev('claude', 'UserPromptSubmit', { turnId: 'p1' }), ctx));
    expect(queued).toMatchObject({ status: 'working', turn_id: 'p1', turn_generation: 2, seen_turn_ids: ['p1'] });
    const done = accepted(applyHookEvent(queued, ev('claude', 'Stop', { turnId: 'q1' }), ctx));
    expect(done).toMatchObject({ status: 'idle', turn_id: 'q1', seen_turn_ids: ['p1', 'q1'] });
    // The older id is now stale for every event; the adopted one is the current turn's.
    expect(applyHookEvent(done, ev('claude', 'UserPromptSubmit', { turnId: 'p1' }), ctx)).toMatchObject({ reason: 'stale_turn' });
    expect(applyHookEvent(done, ev('claude', 'Stop', { turnId: 'p1' }), ctx)).toMatchObject({ reason: 'turn_mismatch' });
    expect(accepted(applyHookEvent(done, ev('claude', 'UserPromptSubmit', { turnId: 'q1' }), ctx)).turn_generation).toBe(3);
  });

  it('adopting an unseen claude turn id fails closed once the history is full', () => {
    const s = accepted(applyHookEvent(started('claude'), ev('claude', 'UserPromptSubmit', { turnId: 'p1' }), ctx));
    const full = { ...s, seen_turn_ids: Array.from({ length: FENCE_HISTORY_CAP }, (_, i) => (i === 0 ? 'p1' : `old${i}`)) };
    expect(applyHookEvent(full, ev('claude', 'Stop', { turnId: 'fresh' }), ctx)).toMatchObject({ accepted: false, reason: 'turn_fence_exhausted' });
  });

  it('an open PreToolUse is working even without a prompt; its post must name a tool it opened', () => {
    const s = accepted(applyHookEvent(started('claude'), ev('claude', 'PreToolUse', { toolUseId: 'tu1' }), ctx));
    expect(s).toMatchObject({ status: 'working', operation_id: 'tu1' });
    const parallel = accepted(applyHookEvent(s, ev('claude', 'PreToolUse', { toolUseId: 'tu2' }), ctx));
    expect(accepted(applyHookEvent(parallel, ev('claude', 'PostToolUse', { toolUseId: 'tu1' }), ctx)).operation_id).toBe('tu2');
    expect(applyHookEvent(parallel, ev('claude', 'PostToolUse', { toolUseId: 'never' }), ctx)).toMatchObject({ reason: 'operation_mismatch' });
    expect(applyHookEvent(parallel, ev('claude', 'PreToolUse'), ctx)).toMatchObject({ reason: 'operation_mismatch' });
  });

  it('PermissionRequest / permission_prompt → waiting; Stop / idle_prompt → idle; SessionEnd → stopped', () => {
    const s = accepted(applyHookEvent(started('claude'), ev('claude', 'UserPromptSubmit'), ctx));
    expect(accepted(applyHookEvent(s, ev('claude', 'PermissionRequest'), ctx)).status).toBe('waiting');
    expect(accepted(applyHookEvent(s, ev('claude', 'Notification', { notificationType: 'permission_prompt' }), ctx)).status).toBe('waiting');
    expect(accepted(applyHookEvent(s, ev('claude', 'Stop'), ctx)).status).toBe('idle');
    expect(accepted(applyHookEvent(s, ev('claude', 'Notification', { notificationType: 'idle_prompt' }), ctx)).status).toBe('idle');
    expect(accepted(applyHookEvent(s, ev('claude', 'SessionEnd'), ctx)).status).toBe('stopped');
  });

  it('an interrupt ends the turn as idle + interrupted, except before a session or after its end', () => {
    const s = accepted(applyHookEvent(started('claude'), ev('claude', 'UserPromptSubmit'), ctx));
    expect(applyInterrupt(s, 'T9')).toMatchObject({ status: 'idle', interrupted: true, event: 'Interrupt' });
    const pending = pendingHookState({ runtime: 'claude', groupId: 'g', actorId: 'a', launchToken: 'tok', now: 'T0' });
    expect(applyInterrupt(pending, 'T9')).toBe(pending);
  });
});
