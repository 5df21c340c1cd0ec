import type { AutomationRule } from '@cccc/ipc-protocol';
import { actionKind, STANDUP_RULE_ID } from './ruleset.js';
import { compileCron, cronLatestDue, cronNextAfter, intervalLatestSlot } from './schedule.js';
import { isoUtc, parseRfc3339 } from './time.js';

// The pure tick: given a rule, its runtime state and the time, what happens now. The daemon's
// scheduler owns the clock, the files and the actions; nothing here reads a clock or a file.

/** One rule's entry in state/automation.json `rules`. */
export interface RuleState {
  /** The rule's clock: interval slots are `clock_at + k·every`; cron fires only after it. */
  clock_at?: string;
  last_fired_at?: string;
  last_slot_key?: string;
  at_fired?: boolean;
  completed_at?: string;
  /** A one-time rule completed by a resume, without running. */
  skipped?: boolean;
  last_error_at?: string;
  last_error?: string;
}

export type GroupRunState = 'active' | 'idle' | 'paused' | 'stopped';

export type Evaluation =
  | { readonly kind: 'skip' }
  /** First tick of an enabled clock rule: the clock starts now, nothing fires. */
  | { readonly kind: 'establish'; readonly state: RuleState }
  | { readonly kind: 'due'; readonly scheduledAt: string; readonly slotKey: string; readonly intervalSeconds: number }
  | { readonly kind: 'error'; readonly message: string };

const ms = (iso: string | undefined) => parseRfc3339(iso);

/** Whether a group in this state runs this rule: paused/stopped nothing, idle all but standup. */
export function runsIn(groupState: GroupRunState, rule: AutomationRule): boolean {
  if (groupState === 'paused' || groupState === 'stopped') return false;
  return !(groupState === 'idle' && rule.id === STANDUP_RULE_ID);
}

export function evaluateRule(rule: AutomationRule, st: RuleState, nowMs: number, groupState: GroupRunState): Evaluation {
  if (rule.enabled === false || !runsIn(groupState, rule)) return { kind: 'skip' };
  const trigger = rule.trigger;
  const now = isoUtc(nowMs);
  if (trigger.kind === 'at') {
    if (st.at_fired || st.completed_at) return { kind: 'skip' };
    const at = ms(trigger.at);
    if (at === undefined) return { kind: 'error', message: 'invalid at trigger: expected an RFC 3339 timestamp' };
    if (nowMs < at) return { kind: 'skip' };
    return { kind: 'due', scheduledAt: isoUtc(at), slotKey: `at:${isoUtc(at)}`, intervalSeconds: 0 };
  }
  const clock = ms(st.clock_at) ?? ms(st.last_fired_at);
  if (clock === undefined) return { kind: 'establish', state: { ...st, clock_at: now } };
  if (trigger.kind === 'interval') {
    if (nowMs < clock + trigger.every_seconds * 1000) return { kind: 'skip' };
    const slot = intervalLatestSlot(clock, trigger.every_seconds, nowMs);
    return { kind: 'due', scheduledAt: isoUtc(slot), slotKey: `interval:${isoUtc(slot)}`, intervalSeconds: trigger.every_seconds };
  }
  let cron;
  try {
    cron = compileCron(trigger.cron, trigger.timezone);
  } catch (error) {
    return { kind: 'error', message: `invalid cron trigger: ${(error as Error).message}` };
  }
  const slot = cronLatestDue(cron, clock, nowMs);
  if (slot === undefined || st.last_slot_key === `cron:${isoUtc(slot)}`) return { kind: 'skip' };
  return { kind: 'due', scheduledAt: isoUtc(slot), slotKey: `cron:${isoUtc(slot)}`, intervalSeconds: 0 };
}

/**
 * The state after a due slot was handled. Completed (a durable effect happened): the clock
 * moves to the slot, one-time rules are done. Not completed (no enabled recipient, an action
 * error): the error is recorded; clock rules still move past the slot so a later tick cannot
 * burst, and one-time rules stay eligible.
 */
export function afterDue(rule: AutomationRule, st: RuleState, due: { scheduledAt: string; slotKey: string }, nowMs: number, outcome: { completed: boolean; error?: string }): RuleState {
  const now = isoUtc(nowMs);
  const next: RuleState = { ...st };
  if (rule.trigger.kind !== 'at') {
    next.clock_at = due.scheduledAt;
    if (rule.trigger.kind === 'cron') next.last_slot_key = due.slotKey;
  }
  if (outcome.completed) {
    next.last_fired_at = now;
    delete next.last_error;
    delete next.last_error_at;
    if (rule.trigger.kind === 'at') {
      next.at_fired = true;
      next.last_slot_key = due.slotKey;
      next.completed_at = now;
    }
  } else if (outcome.error) {
    next.last_error = outcome.error.slice(0, 500);
    next.last_error_at = now;
  }
  return next;
}

export function withError(st: RuleState, message: string, nowMs: number): RuleState {
  if (st.last_error === message) return st;
  return { ...st, last_error: message.slice(0, 500), last_error_at: isoUtc(nowMs) };
}

/**
 * Rebase without catching up. `restart` (the daemon started again) keeps interval clocks and
 * their phase, moving past slots missed while down; `resume` (paused/stopped → running) starts
 * interval clocks at now. Cron clocks start at now either way. One-time rules whose time passed
 * are completed without running; future ones stay eligible.
 */
export function rebase(rule: AutomationRule, st: RuleState, nowMs: number, mode: 'restart' | 'resume'): RuleState {
  const now = isoUtc(nowMs);
  const trigger = rule.trigger;
  if (trigger.kind === 'at') {
    const at = ms(trigger.at);
    if (st.at_fired || st.completed_at || at === undefined || at > nowMs || rule.enabled === false) return st;
    return { ...st, at_fired: true, skipped: true, completed_at: now, last_slot_key: `at:${isoUtc(at)}` };
  }
  if (rule.enabled === false) return st;
  const clock = ms(st.clock_at) ?? ms(st.last_fired_at);
  if (trigger.kind === 'interval' && mode === 'restart' && clock !== undefined) {
    return { ...st, clock_at: isoUtc(intervalLatestSlot(clock, trigger.every_seconds, nowMs)) };
  }
  return { ...st, clock_at: now };
}

/** Per-rule status for group_automation_state. */
export function ruleStatus(rule: AutomationRule, st: RuleState, nowMs: number) {
  const completed = rule.trigger.kind === 'at' && Boolean(st.at_fired || st.completed_at);
  return {
    last_fired_at: st.last_fired_at ?? '',
    last_error_at: st.last_error_at ?? '',
    last_error: st.last_error ?? '',
    next_fire_at: nextFireAt(rule, st, nowMs) ?? '',
    completed,
    completed_at: completed ? (st.completed_at ?? st.last_fired_at ?? '') : '',
  };
}

export function nextFireAt(rule: AutomationRule, st: RuleState, nowMs: number): string | undefined {
  if (rule.enabled === false) return undefined;
  const trigger = rule.trigger;
  if (trigger.kind === 'at') {
    if (st.at_fired || st.completed_at) return undefined;
    const at = ms(trigger.at);
    return at === undefined ? undefined : isoUtc(at);
  }
  const clock = ms(st.clock_at) ?? ms(st.last_fired_at);
  if (trigger.kind === 'interval') {
    if (clock === undefined) return isoUtc(nowMs + trigger.every_seconds * 1000);
    return isoUtc(intervalLatestSlot(clock, trigger.every_seconds, Math.max(nowMs, clock)) + trigger.every_seconds * 1000);
  }
  try {
    const next = cronNextAfter(compileCron(trigger.cron, trigger.timezone), Math.max(nowMs, clock ?? nowMs));
    return next === undefined ? undefined : isoUtc(next);
  } catch {
    return undefined;
  }
}

/**
 * After a ruleset change: drop the state of rules that no longer exist; a one-time rule whose
 * time changed becomes eligible again; a rule that stopped being one-time forgets its one-time
 * marks. Returns undefined when nothing changed.
 */
export function reconcileState(
  previous: readonly AutomationRule[],
  current: readonly AutomationRule[],
  rules: Readonly<Record<string, RuleState>>,
): Record<string, RuleState> | undefined {
  const prevById = new Map(previous.map((r) => [r.id, r]));
  const ids = new Set(current.map((r) => r.id));
  let changed = false;
  const out: Record<string, RuleState> = {};
  for (const [id, st] of Object.entries(rules)) {
    if (!ids.has(id)) {
      changed = true;
      continue;
    }
    out[id] = st;
  }
  for (const rule of current) {
    const st = out[rule.id];
    if (!st) continue;
    const prev = prevById.get(rule.id);
    const sameAt = rule.trigger.kind === 'at' && prev?.trigger.kind === 'at' && prev.trigger.at === rule.trigger.at;
    if (sameAt) continue;
    if (rule.trigger.kind === 'at' || st.at_fired !== undefined || st.last_slot_key?.startsWith('at:')) {
      const { at_fired, completed_at, skipped, last_slot_key, last_fired_at, ...rest } = st;
      const keep = rule.trigger.kind === 'at' ? rest : { ...rest, ...(last_fired_at ? { last_fired_at } : {}) };
      if (at_fired !== undefined || completed_at || skipped || last_slot_key?.startsWith('at:') || (rule.trigger.kind === 'at' && last_fired_at)) {
        out[rule.id] = keep;
        changed = true;
      }
    }
  }
  return changed ? out : undefined;
}

