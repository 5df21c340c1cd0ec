import { describe, expect, it } from 'vitest';
import type { ManagedState } from '@cccc/pty-runtime';
import { managedWorkingState } from './managed-working-state.js';

const state = (p: Partial<ManagedState>): ManagedState => ({
  session_id: 's1',
  state: 'idle',
  working: false,
  active_turn_id: null,
  permissions: [],
  reason: 'session/ready',
  updated_at: '2026-12-06T10:00:00Z',
  ...p,
});

describe('a managed session\'s working state', () => {
  it('is labelled with its provider-event source: app_server (Codex) or managed_session (an ACP session)', () => {
    expect(managedWorkingState(state({}), 'app_server').state_source).toBe('app_server');
    expect(managedWorkingState(state({ state: 'working', working: true, reason: 'session/update' }), 'managed_session')).toMatchObject({
      state_source: 'managed_session',
      effective_working_state: 'working',
      effective_working_reason: 'session/update',
      busy: true,
      turn_phase: 'tool_open',
    });
  });

  it('waiting on a permission is waiting_user input; stopped is offline', () => {
    expect(managedWorkingState(state({ state: 'waiting', working: true }), 'managed_session')).toMatchObject({ effective_working_state: 'waiting', input_state: 'waiting_user' });
    expect(managedWorkingState(state({ state: 'stopped' }), 'managed_session')).toMatchObject({ input_state: 'offline', cli_alive: false });
  });
});
