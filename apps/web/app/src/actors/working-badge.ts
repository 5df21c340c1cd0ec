import type { ActorListEntry } from '../api/types';

// The working-state badge names its evidence: a hook projection is authoritative, terminal
// heuristics and idle time are labelled fallbacks (REFERENCE_NOTES §4), so "idle · terminal"
// reads as a guess and "working · hook" as a fact.

export type WorkingState = ActorListEntry['effective_working_state'];

export interface WorkingBadge {
  readonly state: WorkingState | 'unknown';
  readonly source: string;
  readonly label: string;
  readonly title: string;
}

/**
 * How each evidence source reads on the badge: `idle` is the output-timing fallback (recent
 * output means working), which "working · idle" would misread as a contradiction.
 */
const SOURCE_WORDS: Record<string, string> = {
  hook: 'hook',
  terminal: 'screen',
  idle: 'output timing',
  process: 'process',
  // A managed session's own protocol events (Codex app-server): authoritative, like a hook.
  app_server: 'app-server',
  // An ACP session's own updates (opencode, Kilo, headless ACP): authoritative too.
  managed_session: 'ACP session',
  unknown: 'no evidence',
};

/**
 * The state comes from a managed session's own protocol (Codex app-server, or an ACP session):
 * its `waiting` is a pending request answered on the card (headless_control).
 */
export function isManagedSource(source: string | undefined): boolean {
  return source === 'app_server' || source === 'managed_session';
}

export function workingBadge(actor: Partial<Pick<ActorListEntry, 'effective_working_state' | 'state_source' | 'effective_working_reason' | 'running' | 'input_state'>>): WorkingBadge {
  const state = actor.effective_working_state ?? (actor.running === false ? 'stopped' : 'unknown');
  // A stopped actor's state comes from the process table whatever the daemon labels it.
  const source = state === 'stopped' ? (actor.state_source ?? 'process') : (actor.state_source ?? 'unknown');
  const label = state === 'stopped' ? 'stopped' : `${state} · ${SOURCE_WORDS[source] ?? source}`;
  const parts = [actor.effective_working_reason, actor.input_state && actor.input_state !== 'ready' ? `input ${actor.input_state}` : undefined].filter(Boolean);
  return { state, source, label, title: parts.join(' · ') || label };
}
