import type { WorkingState } from '@cccc/hook-fence';
import type { ActorActivityEntry } from '@cccc/ipc-protocol';

/** What the daemon last derived for one actor, with when its effective state last changed. */
export interface TrackedState {
  readonly running: boolean;
  readonly idleSeconds: number | null;
  readonly state: WorkingState;
  /** RFC3339 UTC time the effective working state last changed. */
  readonly updatedAt: string;
}

/** Keep `updatedAt` while the effective state stays the same; a change stamps `now`. */
export function track(prev: TrackedState | undefined, running: boolean, idleSeconds: number | null, state: WorkingState, now: string): TrackedState {
  const same = prev !== undefined && prev.state.effective_working_state === state.effective_working_state;
  return { running, idleSeconds, state, updatedAt: same ? prev.updatedAt : now };
}

/**
 * `actor.activity` is appended only when some actor's effective state changed. Reasons and idle
 * seconds move every second, so they alone never append; an actor first seen stopped (it never
 * ran while we watched) is no change either.
 */
export function activityChanged(prev: ReadonlyMap<string, TrackedState>, next: ReadonlyMap<string, TrackedState>): boolean {
  for (const [id, cur] of next) {
    const before = prev.get(id);
    if (!before) {
      if (cur.state.effective_working_state !== 'stopped') return true;
    } else if (before.state.effective_working_state !== cur.state.effective_working_state) {
      return true;
    }
  }
  // An actor that disappeared is reported as stopped: a change if it was not stopped already.
  for (const [id, before] of prev) if (!next.has(id) && before.state.effective_working_state !== 'stopped') return true;
  return false;
}

/** One actor of `actor.activity` (REFERENCE_NOTES §4 fields, then the provenance fields). */
export function activityEntry(actorId: string, t: TrackedState, managedRunner?: string): ActorActivityEntry {
  const s = t.state;
  return {
    id: actorId,
    running: t.running,
    // A managed session's state comes from its provider's events (app-server or ACP session):
    // that is the surface it runs on.
    runner_effective: s.state_source === 'app_server' || s.state_source === 'managed_session' ? (managedRunner ?? 'codex_app_server') : 'pty',
    idle_seconds: t.idleSeconds,
    effective_working_state: s.effective_working_state,
    effective_working_reason: s.effective_working_reason,
    effective_working_updated_at: t.updatedAt,
    effective_active_task_id: null,
    busy: s.busy,
    input_state: s.input_state,
    turn_phase: s.turn_phase,
    cli_alive: s.cli_alive,
    state_source: s.state_source,
  };
}
