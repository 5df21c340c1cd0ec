import { describe, expect, it } from 'vitest';
import type { WorkingState } from '@cccc/hook-fence';
import { activityChanged, activityEntry, track, type TrackedState } from './actor-activity.js';
import { terminalWorkingHint } from './terminal-heuristic.js';

const ws = (effective_working_state: WorkingState['effective_working_state'], reason = 'r'): WorkingState => ({
  effective_working_state,
  effective_working_reason: reason,
  busy: effective_working_state === 'working',
  input_state: 'ready',
  turn_phase: 'unknown_evidence',
  cli_alive: true,
  state_source: 'idle',
});
const t = (state: WorkingState, at = 'T0'): TrackedState => ({ running: true, idleSeconds: 1, state, updatedAt: at });

describe('actor.activity change detection', () => {
  it('updated_at moves only when the effective state changes', () => {
    const a = track(undefined, true, 1, ws('working'), 'T1');
    expect(a.updatedAt).toBe('T1');
    expect(track(a, true, 2, ws('working', 'other reason'), 'T2').updatedAt).toBe('T1');
    expect(track(a, true, 2, ws('idle'), 'T3').updatedAt).toBe('T3');
  });

  it('appends on an effective change, a new non-stopped actor, or a vanished running one; not on reason or idle seconds', () => {
    const m = (e: Record<string, TrackedState>) => new Map(Object.entries(e));
    expect(activityChanged(m({ a: t(ws('waiting', 'idle_6s')) }), m({ a: t(ws('waiting', 'idle_7s')) }))).toBe(false);
    expect(activityChanged(m({ a: t(ws('waiting')) }), m({ a: t(ws('stuck')) }))).toBe(true);
    expect(activityChanged(m({}), m({ a: t(ws('stopped')) }))).toBe(false);
    expect(activityChanged(m({}), m({ a: t(ws('idle')) }))).toBe(true);
    expect(activityChanged(m({ a: t(ws('idle')) }), m({}))).toBe(true);
    expect(activityChanged(m({ a: t(ws('stopped')) }), m({}))).toBe(false);
  });

  it('entries carry the reference fields and the provenance', () => {
    expect(activityEntry('peer1', t(ws('working'), 'T9'))).toEqual({
      id: 'peer1',
      running: true,
      runner_effective: 'pty',
      idle_seconds: 1,
      effective_working_state: 'working',
      effective_working_reason: 'r',
      effective_working_updated_at: 'T9',
      effective_active_task_id: null,
      busy: true,
      input_state: 'ready',
      turn_phase: 'unknown_evidence',
      cli_alive: true,
      state_source: 'idle',
    });
  });
});

describe('actor.activity surface of a managed actor', () => {
  it('names the managed runner it runs on (codex app-server, opencode ACP); codex_app_server when unknown', () => {
    const managed: WorkingState = { ...ws('working'), state_source: 'app_server' };
    expect(activityEntry('oc', t(managed), 'opencode_acp').runner_effective).toBe('opencode_acp');
    expect(activityEntry('cx', t(managed)).runner_effective).toBe('codex_app_server');
    expect(activityEntry('pt', t(ws('idle')), 'opencode_acp').runner_effective).toBe('pty');
  });

  it('an ACP session (state_source managed_session) names its runner too', () => {
    const acp: WorkingState = { ...ws('working'), state_source: 'managed_session' };
    expect(activityEntry('oc', t(acp), 'opencode_acp')).toMatchObject({ runner_effective: 'opencode_acp', state_source: 'managed_session' });
    expect(activityEntry('cp', t(acp), 'headless').runner_effective).toBe('headless');
  });
});

describe('terminal heuristics (labelled fallback)', () => {
  it('claude: "esc to interrupt" is working, a boxed prompt is idle; other runtimes have no opinion', () => {
    expect(terminalWorkingHint('claude', '\x1b[2m✻ Pondering… (esc to interrupt)\x1b[0m')).toBe('working');
    expect(terminalWorkingHint('claude', '╭────╮\r\n│ > \x1b[7m \x1b[0m│\r\n╰────╯')).toBe('idle');
    expect(terminalWorkingHint('claude', 'hello')).toBeNull();
    expect(terminalWorkingHint('custom', 'esc to interrupt')).toBeNull();
  });

  it('codex: a prompt line after the last "Working (" is idle', () => {
    expect(terminalWorkingHint('codex', '• Working (3s • esc to interrupt)')).toBe('working');
    expect(terminalWorkingHint('codex', '• Working (3s)\r\ndone\r\n› ')).toBe('idle');
  });
});
