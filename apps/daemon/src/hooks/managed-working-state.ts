import type { WorkingState } from '@cccc/hook-fence';
import type { ManagedState } from '@cccc/pty-runtime';

/**
 * A managed session's working state, from its provider's own events (the app-server's thread
 * status and turn notifications): authoritative, labelled `app_server`, with the provider event
 * that set it as the reason. No screen heuristics, no idle fallback.
 */
export function managedWorkingState(s: ManagedState): WorkingState {
  const effective = s.state === 'starting' ? 'idle' : s.state;
  return {
    effective_working_state: effective,
    effective_working_reason: s.reason,
    busy: s.working,
    input_state: s.state === 'stopped' ? 'offline' : s.state === 'waiting' ? 'waiting_user' : 'ready',
    turn_phase: s.working ? 'tool_open' : s.state === 'starting' ? 'unknown_evidence' : 'turn_closed',
    cli_alive: s.state !== 'stopped',
    state_source: 'app_server',
  };
}
