import { describe, expect, it } from 'vitest';
import type { AutomationRule } from '@cccc/ipc-protocol';
import { afterDue, evaluateRule, nextFireAt, rebase, reconcileState, ruleStatus, type RuleState } from './engine.js';

const T0 = Date.parse('2026-12-02T12:00:00Z');
const min = 60_000;
const interval = (every_seconds: number, extra: Partial<AutomationRule> = {}): AutomationRule => ({ id: 'r', enabled: true, to: ['@all'], trigger: { kind: 'interval', every_seconds }, ...extra });
const cron = (expr: string, timezone?: string): AutomationRule => ({ id: 'c', enabled: true, trigger: { kind: 'cron', cron: expr, ...(timezone ? { timezone } : {}) } });
const at = (iso: string): AutomationRule => ({ id: 'a', enabled: true, trigger: { kind: 'at', at: iso } });

/** Run the engine like the scheduler does, every `stepMs`, recording fires (all complete). */
function run(rule: AutomationRule, from: number, to: number, stepMs: number, st: RuleState = {}, groupState: 'active' | 'idle' = 'active') {
  const fires: string[] = [];
  for (let t = from; t <= to; t += stepMs) {
    const e = evaluateRule(rule, st, t, groupState);
    if (e.kind === 'establish') st = e.state;
    if (e.kind === 'due') {
      fires.push(e.scheduledAt);
      st = afterDue(rule, st, e, t, { completed: true });
    }
  }
  return { fires, st };
}

describe('interval rules', () => {
  it('the first tick establishes the clock and does not fire; then one fire per period', () => {
    expect(evaluateRule(interval(300), {}, T0, 'active')).toEqual({ kind: 'establish', state: { clock_at: '2026-12-02T12:00:00Z' } });
    const { fires } = run(interval(300), T0, T0 + 16 * min, 5000);
    expect(fires).toEqual(['2026-12-02T12:05:00Z', '2026-12-02T12:10:00Z', '2026-12-02T12:15:00Z']);
  });

  it('a long gap fires once, for the newest slot, never a burst', () => {
    const st: RuleState = { clock_at: '2026-12-02T12:00:00Z' };
    const e = evaluateRule(interval(60), st, T0 + 10 * min + 30_000, 'active');
    expect(e).toMatchObject({ kind: 'due', scheduledAt: '2026-12-02T12:10:00Z' });
    const after = afterDue(interval(60), st, e as never, T0 + 10 * min + 30_000, { completed: true });
    expect(evaluateRule(interval(60), after, T0 + 10 * min + 35_000, 'active')).toEqual({ kind: 'skip' });
  });

  it('disabled rules, paused and stopped groups run nothing', () => {
    const st: RuleState = { clock_at: '2026-12-02T11:00:00Z' };
    expect(evaluateRule(interval(60, { enabled: false }), st, T0, 'active').kind).toBe('skip');
    expect(evaluateRule(interval(60), st, T0, 'paused' as never).kind).toBe('skip');
    expect(evaluateRule(interval(60), st, T0, 'stopped' as never).kind).toBe('skip');
  });

  it('an idle group runs user rules but suppresses the built-in standup', () => {
    const st: RuleState = { clock_at: '2026-12-02T11:00:00Z' };
    expect(evaluateRule(interval(60), st, T0, 'idle').kind).toBe('due');
    expect(evaluateRule(interval(60, { id: 'standup' }), st, T0, 'idle').kind).toBe('skip');
    expect(evaluateRule(interval(60, { id: 'standup' }), st, T0, 'active').kind).toBe('due');
  });

  it('a slot that did not complete records the error and still moves the clock', () => {
    const st: RuleState = { clock_at: '2026-12-02T11:59:00Z' };
    const e = evaluateRule(interval(60), st, T0, 'active');
    const after = afterDue(interval(60), st, e as never, T0, { completed: false, error: 'no enabled recipients' });
    expect(after).toMatchObject({ clock_at: '2026-12-02T12:00:00Z', last_error: 'no enabled recipients', last_error_at: '2026-12-02T12:00:00Z' });
    expect(after.last_fired_at).toBeUndefined();
    const ok = afterDue(interval(60), after, { scheduledAt: '2026-12-02T12:01:00Z', slotKey: 'x' }, T0 + min, { completed: true });
    expect(ok.last_error).toBeUndefined();
    expect(ok.last_fired_at).toBe('2026-12-02T12:01:00Z');
  });
});

describe('cron rules', () => {
  it('fires at each matching minute in UTC after the clock starts', () => {
    const { fires } = run(cron('*/15 * * * *'), T0 + 1000, T0 + 46 * min, 5000);
    expect(fires).toEqual(['2026-12-02T12:15:00Z', '2026-12-02T12:30:00Z', '2026-12-02T12:45:00Z']);
  });

  it('honours the time zone: 09:00 in New York is 14:00Z in December', () => {
    const st: RuleState = { clock_at: '2026-12-02T13:00:00Z' };
    expect(evaluateRule(cron('0 9 * * *', 'America/New_York'), st, Date.parse('2026-12-02T13:59:00Z'), 'active').kind).toBe('skip');
    expect(evaluateRule(cron('0 9 * * *', 'America/New_York'), st, Date.parse('2026-12-02T14:00:03Z'), 'active')).toMatchObject({ kind: 'due', scheduledAt: '2026-12-02T14:00:00Z' });
    expect(nextFireAt(cron('0 9 * * *', 'Asia/Tokyo'), st, T0)).toBe('2026-12-03T00:00:00Z');
  });

  it('one slot fires once even when ticks repeat inside the minute', () => {
    const { fires } = run(cron('0 * * * *'), T0 - 30 * min, T0 + 59_000, 1000);
    expect(fires).toEqual(['2026-12-02T12:00:00Z']);
  });

  it('reports an unusable cron as an error, not a fire', () => {
    expect(evaluateRule(cron('61 * * * *'), { clock_at: '2026-12-02T11:00:00Z' }, T0, 'active').kind).toBe('error');
  });
});

describe('at rules', () => {
  it('fires once at its time, then is complete', () => {
    const rule = at('2026-12-02T12:10:00Z');
    expect(evaluateRule(rule, {}, T0, 'active').kind).toBe('skip');
    const e = evaluateRule(rule, {}, T0 + 10 * min, 'active');
    expect(e).toMatchObject({ kind: 'due', scheduledAt: '2026-12-02T12:10:00Z', slotKey: 'at:2026-12-02T12:10:00Z' });
    const st = afterDue(rule, {}, e as never, T0 + 10 * min, { completed: true });
    expect(st).toMatchObject({ at_fired: true, completed_at: '2026-12-02T12:10:00Z' });
    expect(evaluateRule(rule, st, T0 + 20 * min, 'active').kind).toBe('skip');
    expect(ruleStatus(rule, st, T0 + 20 * min)).toMatchObject({ completed: true, next_fire_at: '' });
  });

  it('an at rule that did not complete stays eligible', () => {
    const rule = at('2026-12-02T12:00:00Z');
    const st = afterDue(rule, {}, { scheduledAt: '2026-12-02T12:00:00Z', slotKey: 'at:x' }, T0, { completed: false, error: 'no enabled recipients' });
    expect(evaluateRule(rule, st, T0 + 5000, 'active').kind).toBe('due');
    expect(ruleStatus(rule, st, T0).completed).toBe(false);
  });
});

describe('rebase: resume and restart never catch up', () => {
  it('restart keeps an interval clock and its phase, skipping missed slots', () => {
    const rule = interval(600);
    const st = rebase(rule, { clock_at: '2026-12-02T10:00:00Z' }, Date.parse('2026-12-02T12:34:00Z'), 'restart');
    expect(st.clock_at).toBe('2026-12-02T12:30:00Z');
    expect(evaluateRule(rule, st, Date.parse('2026-12-02T12:34:05Z'), 'active').kind).toBe('skip');
    expect(nextFireAt(rule, st, Date.parse('2026-12-02T12:34:05Z'))).toBe('2026-12-02T12:40:00Z');
  });

  it('resume starts interval and cron clocks at now', () => {
    expect(rebase(interval(600), { clock_at: '2026-12-02T10:00:00Z' }, T0, 'resume').clock_at).toBe('2026-12-02T12:00:00Z');
    const c = cron('*/5 * * * *');
    const st = rebase(c, { clock_at: '2026-12-02T10:00:00Z' }, T0 + 2 * min, 'restart');
    expect(evaluateRule(c, st, T0 + 2 * min + 5000, 'active').kind).toBe('skip');
    expect(evaluateRule(c, st, T0 + 5 * min, 'active')).toMatchObject({ kind: 'due', scheduledAt: '2026-12-02T12:05:00Z' });
  });

  it('missed one-time rules complete without running; future ones stay eligible', () => {
    const missed = rebase(at('2026-12-02T11:00:00Z'), {}, T0, 'restart');
    expect(missed).toMatchObject({ at_fired: true, skipped: true, completed_at: '2026-12-02T12:00:00Z' });
    expect(missed.last_fired_at).toBeUndefined();
    expect(evaluateRule(at('2026-12-02T11:00:00Z'), missed, T0, 'active').kind).toBe('skip');
    expect(rebase(at('2026-12-02T13:00:00Z'), {}, T0, 'resume')).toEqual({});
  });
});

describe('reconcileState', () => {
  it('drops retired rules and re-arms a retimed at rule', () => {
    const prev = [at('2030-01-01T00:00:00Z'), interval(60, { id: 'keep' }), interval(60, { id: 'retired' })];
    const next = [at('2030-01-02T00:00:00Z'), interval(60, { id: 'keep' })];
    const state = {
      a: { at_fired: true, last_slot_key: 'at:2030-01-01T00:00:00Z', last_fired_at: '2030-01-01T00:00:00Z', completed_at: '2030-01-01T00:00:00Z' },
      keep: { clock_at: '2026-01-01T00:00:00Z' },
      retired: { clock_at: '2026-01-01T00:00:00Z' },
    };
    expect(reconcileState(prev, next, state)).toEqual({ a: {}, keep: { clock_at: '2026-01-01T00:00:00Z' } });
    expect(reconcileState(next, next, { keep: { clock_at: 'x' } })).toBeUndefined();
  });
});
