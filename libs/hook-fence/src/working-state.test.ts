import { describe, expect, it } from 'vitest';
import { pendingHookState, type HookState } from './hook-state.js';
import { deriveWorkingState, type WorkingStateInput } from './working-state.js';

const id = { runtime: 'claude', pid: 7, launch_token: 'tok' };
const hook = (patch: Partial<HookState>): HookState => ({
  ...pendingHookState({ runtime: 'claude', groupId: 'g', actorId: 'a', launchToken: 'tok', now: 'T' }),
  awaiting_session_start: false,
  session_id: 's',
  ...patch,
});
const input = (patch: Partial<WorkingStateInput>): WorkingStateInput => ({
  running: true,
  cliAlive: true,
  session: id,
  launch: id,
  hook: hook({ status: 'idle', event: 'SessionStart' }),
  terminal: null,
  idleSeconds: 100,
  hadRecentOutput: false,
  ...patch,
});

describe('working state with provenance', () => {
  it('not running → stopped/offline from the process; a dead CLI too', () => {
    expect(deriveWorkingState(input({ running: false }))).toMatchObject({ effective_working_state: 'stopped', input_state: 'offline', cli_alive: false, state_source: 'process' });
    expect(deriveWorkingState(input({ cliAlive: false }))).toMatchObject({ effective_working_reason: 'cli_exited', cli_alive: false });
  });

  it.each([
    [{ status: 'working', event: 'PreToolUse', operation_id: 'tu' }, 'working', true, 'ready', 'tool_open'],
    [{ status: 'working', event: 'PostToolUse', operation_id: null }, 'working', true, 'ready', 'tool_result_pending_reply'],
    [{ status: 'working', event: 'UserPromptSubmit' }, 'working', true, 'ready', 'user_prompt_pending'],
    [{ status: 'waiting', event: 'PermissionRequest', operation_id: 'tu' }, 'waiting', false, 'waiting_user', 'tool_open'],
    [{ status: 'idle', event: 'Stop' }, 'idle', false, 'ready', 'turn_closed'],
    [{ status: 'idle', event: 'SessionStart' }, 'idle', false, 'ready', 'unknown_evidence'],
    [{ status: 'stopped', event: 'SessionEnd' }, 'stopped', false, 'offline', 'turn_closed'],
  ] as const)('hook %j → %s', (patch, state, busy, inputState, phase) => {
    expect(deriveWorkingState(input({ hook: hook(patch) }))).toEqual({
      effective_working_state: state,
      effective_working_reason: `claude_hook_${patch.event}`,
      busy,
      input_state: inputState,
      turn_phase: phase,
      cli_alive: true,
      state_source: 'hook',
    });
  });

  it('fails closed to the labelled fallback when runtime, pid or token disagree', () => {
    const working = hook({ status: 'working', event: 'UserPromptSubmit' });
    for (const patch of [
      { session: { ...id, pid: 8 } },
      { launch: { ...id, launch_token: 'old' } },
      { launch: null },
      { session: { ...id, runtime: 'codex' } },
      { hook: { ...working, launch_token: 'old' } },
    ]) {
      const w = deriveWorkingState(input({ hook: working, ...patch }));
      expect(w.state_source).not.toBe('hook');
      expect(w.input_state).toBe('unknown');
      expect(w.turn_phase).toBe('unknown_evidence');
      expect(w.effective_working_reason).toMatch(/^hook_unavailable\/idle_/);
    }
  });

  it('the pending state before this launch\'s SessionStart is not evidence: no waiting_user, labelled fallback', () => {
    const pending = pendingHookState({ runtime: 'claude', groupId: 'g', actorId: 'a', launchToken: 'tok', now: 'T' });
    const w = deriveWorkingState(input({ hook: pending }));
    expect(w.state_source).toBe('idle');
    expect(w.input_state).toBe('unknown');
    expect(w.effective_working_reason).toBe('hook_pending/idle_100s');
  });

  it('terminal heuristics, then idle time', () => {
    expect(deriveWorkingState(input({ hook: null, terminal: 'working' }))).toMatchObject({ effective_working_state: 'working', state_source: 'terminal' });
    const idle = (s: number, out = false) => deriveWorkingState(input({ hook: null, idleSeconds: s, hadRecentOutput: out })).effective_working_state;
    expect(idle(1, true)).toBe('working');
    expect(idle(1)).toBe('waiting');
    expect(idle(200)).toBe('waiting');
    expect(idle(300)).toBe('stuck');
    expect(deriveWorkingState(input({ hook: null })).state_source).toBe('idle');
    // Never hooked: the fallback is the whole story, no hook note.
    expect(deriveWorkingState(input({ hook: null, session: null, launch: null })).effective_working_reason).toBe('idle_100s');
  });
});
