import type { ManagedStateSource, WorkingState } from '@cccc/hook-fence';
import type { ManagedState } from '@cccc/pty-runtime';

/**
 * A managed session's working state, from its provider's own events (Codex's app-server thread
 * status and turn notifications, or an ACP session's updates): authoritative, labelled with that
 * source (`app_server` / `managed_session`), with the provider event that set it as the reason.
 * No screen heuristics, no idle fallback.
 */
export function managedWorkingState(s: ManagedState, source: ManagedStateSource): WorkingState {
  const effective = s.state === 'starting' ? 'idle' : s.state;
  return {
    effective_working_state: effective,
    effective_working_reason: s.reason,
    busy: s.working,
    input_state: s.state === 'stopped' ? 'offline' : s.state === 'waiting' ? 'waiting_user' : 'ready',
    turn_phase: s.working ? 'tool_open' : s.state === 'starting' ? 'unknown_evidence' : 'turn_closed',
    cli_alive: s.state !== 'stopped',
    state_source: source,
  };
}
