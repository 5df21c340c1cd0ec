import type { ActorListEntry } from '../api/types';
import { english, wordFor, type Translate } from '../i18n/plain';

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

// How each evidence source reads on the badge is the catalog's `badge.source.*`: `idle` is the
// output-timing fallback (recent output means working), which "working · idle" would misread as a
// contradiction; `app_server` (Codex app-server) and `managed_session` (an ACP session: opencode,
// Kilo, headless ACP) are a managed session's own protocol events, authoritative like a hook.

/**
 * The state comes from a managed session's own protocol (Codex app-server, or an ACP session):
 * its `waiting` is a pending request answered on the card (headless_control).
 */
export function isManagedSource(source: string | undefined): boolean {
  return source === 'app_server' || source === 'managed_session';
}

/** The badge in the page's language (`t`, English by default); the tooltip's reason is the daemon's code. */
export function workingBadge(actor: Partial<Pick<ActorListEntry, 'effective_working_state' | 'state_source' | 'effective_working_reason' | 'running' | 'input_state'>>, t: Translate = english): WorkingBadge {
  const state = actor.effective_working_state ?? (actor.running === false ? 'stopped' : 'unknown');
  // A stopped actor's state comes from the process table whatever the daemon labels it.
  const source = state === 'stopped' ? (actor.state_source ?? 'process') : (actor.state_source ?? 'unknown');
  const stateWord = wordFor(t, 'badge.state', state);
  const label = state === 'stopped' ? stateWord : t('badge.label', { state: stateWord, source: wordFor(t, 'badge.source', source) });
  const input = actor.input_state && actor.input_state !== 'ready' ? t('badge.input', { state: wordFor(t, 'badge.inputState', actor.input_state) }) : undefined;
  const parts = [actor.effective_working_reason, input].filter(Boolean);
  return { state, source, label, title: parts.join(' · ') || label };
}
