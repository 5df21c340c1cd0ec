// The built-in automation behind group.yaml:automation settings (the keys group_settings_update
// stores): silence check (and auto-idle), keepalive after a "Next:" declaration, and help
// nudges. Pure decisions; the daemon reads the ledger and sends the notifications.

export interface BuiltinSettings {
  readonly actor_idle_timeout_seconds: number;
  readonly keepalive_delay_seconds: number;
  readonly keepalive_max_per_actor: number;
  readonly silence_timeout_seconds: number;
  readonly help_nudge_interval_seconds: number;
  readonly help_nudge_min_messages: number;
}

/**
 * The reference's defaults for a key the section lacks (an old group); a new group stores 0 for
 * keepalive, silence and help nudge, so they are off until a user turns them on.
 */
const DEFAULTS: BuiltinSettings = {
  actor_idle_timeout_seconds: 0,
  keepalive_delay_seconds: 120,
  keepalive_max_per_actor: 3,
  silence_timeout_seconds: 0,
  help_nudge_interval_seconds: 600,
  help_nudge_min_messages: 10,
};

export function builtinSettings(automation: unknown): BuiltinSettings {
  const doc = typeof automation === 'object' && automation !== null ? (automation as Record<string, unknown>) : {};
  const out: Record<string, number> = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS)) {
    const v = doc[key];
    if (typeof v === 'number' && Number.isFinite(v)) out[key] = Math.max(0, Math.floor(v));
  }
  return out as unknown as BuiltinSettings;
}

export type SilenceDecision = { kind: 'none' } | { kind: 'reset' } | { kind: 'check' | 'auto_idle'; silentSeconds: number; count: number };

/**
 * Silence: no business chat for `timeout` → tell the foreman, at most once per timeout; the
 * second consecutive check sets the group idle. Activity resets the count. No activity yet (or
 * none since the clock's baseline) is not silence.
 */
export function silenceDecision(input: { timeoutSeconds: number; lastActivityMs?: number; nowMs: number; lastNotifyMs?: number; count: number }): SilenceDecision {
  const { timeoutSeconds, lastActivityMs, nowMs, lastNotifyMs, count } = input;
  if (timeoutSeconds <= 0 || lastActivityMs === undefined) return { kind: 'none' };
  const silent = nowMs - lastActivityMs;
  if (silent < timeoutSeconds * 1000) return count !== 0 ? { kind: 'reset' } : { kind: 'none' };
  if (lastNotifyMs !== undefined && nowMs - lastNotifyMs < timeoutSeconds * 1000) return { kind: 'none' };
  const next = count + 1;
  return { kind: next >= 2 ? 'auto_idle' : 'check', silentSeconds: Math.floor(silent / 1000), count: next };
}

export interface KeepaliveState {
  keepalive_count?: number;
  last_keepalive_next?: string;
  last_keepalive_at?: string;
}

/** The "Next:" line of a message, if it declares one. */
export function declaredNext(text: string): string | undefined {
  return text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.toLowerCase().startsWith('next:'));
}

/**
 * Keepalive: an actor that declared "Next: …" and went quiet for `delay` gets a nudge, at most
 * `max` per declaration, spaced by `delay`. A new declaration starts over. `baselineMs` (the last
 * resume or restart) keeps old declarations from firing at once.
 */
export function keepaliveDecision(input: {
  delaySeconds: number;
  max: number;
  next?: { text: string; ms: number };
  baselineMs?: number;
  nowMs: number;
  state: KeepaliveState;
  parse: (iso: string | undefined) => number | undefined;
}): { due: boolean; state: KeepaliveState } {
  const { delaySeconds, max, next, baselineMs, nowMs, parse } = input;
  let state = input.state;
  if (delaySeconds <= 0 || !next) return { due: false, state };
  if (state.last_keepalive_next !== next.text) state = { keepalive_count: 0, last_keepalive_next: next.text };
  const count = state.keepalive_count ?? 0;
  if (count >= max) return { due: false, state };
  const declared = Math.max(next.ms, baselineMs ?? next.ms);
  const base = count <= 0 ? declared : (parse(state.last_keepalive_at) ?? declared);
  if (nowMs - base < delaySeconds * 1000) return { due: false, state };
  return { due: true, state: { ...state, keepalive_count: count + 1 } };
}

/**
 * Help nudge: after `interval` since the last nudge and at least `minMessages` messages to the
 * actor since, remind it to refresh its working knowledge (cccc_help). The first look starts the
 * clock.
 */
export function helpNudgeDecision(input: { intervalSeconds: number; minMessages: number; lastNudgeMs?: number; messagesSince: number; nowMs: number }): 'off' | 'establish' | 'wait' | 'due' {
  const { intervalSeconds, minMessages, lastNudgeMs, messagesSince, nowMs } = input;
  if (intervalSeconds <= 0 || minMessages <= 0) return 'off';
  if (lastNudgeMs === undefined) return 'establish';
  if (nowMs - lastNudgeMs < intervalSeconds * 1000 || messagesSince < minMessages) return 'wait';
  return 'due';
}

/**
 * Actor idle: a running actor (not the foreman) with nothing in the ledger for `timeout` since
 * the later of its last event and the moment it was first seen running (or the last
 * resume/restart) is reported to the foreman, at most once per timeout.
 */
export function actorIdleDecision(input: { timeoutSeconds: number; sinceMs: number; lastNotifyMs?: number; nowMs: number }): 'off' | 'wait' | 'due' {
  const { timeoutSeconds, sinceMs, lastNotifyMs, nowMs } = input;
  if (timeoutSeconds <= 0) return 'off';
  if (nowMs - sinceMs < timeoutSeconds * 1000) return 'wait';
  if (lastNotifyMs !== undefined && nowMs - lastNotifyMs < timeoutSeconds * 1000) return 'wait';
  return 'due';
}
