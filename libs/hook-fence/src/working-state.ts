import type { HookState } from './hook-state.js';

export type EffectiveWorkingState = 'stopped' | 'idle' | 'working' | 'waiting' | 'stuck';
export type InputState = 'ready' | 'waiting_user' | 'unknown' | 'offline';
export type TurnPhase = 'tool_open' | 'tool_result_pending_reply' | 'user_prompt_pending' | 'turn_closed' | 'unknown_evidence';
/**
 * Provider-event sources of a managed session: `app_server` is Codex's app-server thread events;
 * `managed_session` is an ACP session's updates (opencode, Kilo, the §8.4 headless ACP runtimes).
 */
export type ManagedStateSource = 'app_server' | 'managed_session';
export type StateSource = 'hook' | 'terminal' | 'idle' | 'process' | 'unknown' | ManagedStateSource;

export interface LaunchIdentity {
  runtime: string;
  pid: number;
  launch_token: string;
}

export interface WorkingStateInput {
  running: boolean;
  /** The PTY child process is alive. */
  cliAlive: boolean;
  /** The runtime session the daemon holds now (null when none). */
  session: LaunchIdentity | null;
  /** The committed launch record (null when missing or corrupt). */
  launch: LaunchIdentity | null;
  hook: HookState | null;
  /** Screen heuristics, a labelled fallback. */
  terminal: 'working' | 'idle' | null;
  idleSeconds: number;
  hadRecentOutput: boolean;
}

export interface WorkingState {
  effective_working_state: EffectiveWorkingState;
  effective_working_reason: string;
  busy: boolean;
  input_state: InputState;
  turn_phase: TurnPhase;
  cli_alive: boolean;
  state_source: StateSource;
}

/**
 * Hook state counts only when session, launch record and hook state agree on runtime, pid and
 * launch token; a restart, an older process or a corrupt identity fails closed.
 */
export function hookStateIsAuthoritative(input: WorkingStateInput): input is WorkingStateInput & { hook: HookState } {
  const { session, launch, hook } = input;
  if (!session || !launch || !hook) return false;
  // The pending state written before spawn is no evidence yet: this launch's SessionStart has not
  // landed, so it must not read as a permission wait (which would hold delivery).
  if (hook.awaiting_session_start) return false;
  return (
    session.runtime === launch.runtime &&
    launch.runtime === hook.runtime &&
    session.pid === launch.pid &&
    session.launch_token === launch.launch_token &&
    launch.launch_token === hook.launch_token
  );
}

function turnPhaseOf(hook: HookState): TurnPhase {
  switch (hook.event) {
    case 'PreToolUse':
    case 'PermissionRequest':
      return hook.operation_id !== null ? 'tool_open' : 'user_prompt_pending';
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return hook.operation_id !== null ? 'tool_open' : 'tool_result_pending_reply';
    case 'UserPromptSubmit':
      return 'user_prompt_pending';
    case 'Stop':
    case 'StopFailure':
    case 'SessionEnd':
    case 'Interrupt':
      return 'turn_closed';
    case 'Notification':
      return hook.status === 'idle' ? 'turn_closed' : hook.operation_id !== null ? 'tool_open' : 'unknown_evidence';
    default:
      return 'unknown_evidence';
  }
}

/**
 * Why a hooked launch's state came from a fallback, as a reason prefix: its SessionStart has not
 * landed yet (`hook_pending/`), or the identities disagree or are missing (`hook_unavailable/`).
 * An actor that was never hooked gets no prefix.
 */
function hookNote(input: WorkingStateInput): string {
  if (!input.session && !input.launch) return '';
  if (input.hook?.awaiting_session_start && input.session && input.launch && input.hook.launch_token === input.session.launch_token) return 'hook_pending/';
  return 'hook_unavailable/';
}

const offline = (reason: string, cliAlive: boolean): WorkingState => ({
  effective_working_state: 'stopped',
  effective_working_reason: reason,
  busy: false,
  input_state: 'offline',
  turn_phase: 'unknown_evidence',
  cli_alive: cliAlive,
  state_source: 'process',
});

/** Derive an actor's effective working state and name the evidence it came from. */
export function deriveWorkingState(input: WorkingStateInput): WorkingState {
  if (!input.running) return offline('not_running', false);
  if (!input.cliAlive) return offline('cli_exited', false);
  if (hookStateIsAuthoritative(input)) {
    const hook = input.hook;
    const state: EffectiveWorkingState = hook.status;
    const phase = turnPhaseOf(hook);
    return {
      effective_working_state: state,
      effective_working_reason: `${hook.runtime}_hook_${hook.event ?? 'pending'}`,
      busy: state === 'working',
      input_state: state === 'waiting' ? 'waiting_user' : state === 'stopped' ? 'offline' : 'ready',
      turn_phase: phase,
      cli_alive: true,
      state_source: 'hook',
    };
  }
  const unknownFields = { input_state: 'unknown' as const, turn_phase: 'unknown_evidence' as const, cli_alive: true };
  const note = hookNote(input);
  if (input.terminal) {
    return {
      effective_working_state: input.terminal,
      effective_working_reason: `${note}terminal_${input.terminal}`,
      busy: input.terminal === 'working',
      ...unknownFields,
      state_source: 'terminal',
    };
  }
  const s = input.idleSeconds;
  const state: EffectiveWorkingState = s < 5 ? (input.hadRecentOutput ? 'working' : 'waiting') : s < 300 ? 'waiting' : 'stuck';
  return {
    effective_working_state: state,
    effective_working_reason: `${note}idle_${Math.floor(s)}s`,
    busy: state === 'working',
    ...unknownFields,
    state_source: 'idle',
  };
}
