import { describe, expect, it } from 'vitest';
import { actorIdleDecision, builtinSettings, declaredNext, helpNudgeDecision, keepaliveDecision, silenceDecision } from './builtins.js';
import { parseRfc3339 } from './time.js';

const T0 = Date.parse('2026-12-02T12:00:00Z');
const S = 1000;

describe('built-in automation settings', () => {
  it('a new group stores zeros (off); a missing key takes the reference default', () => {
    expect(builtinSettings({ keepalive_delay_seconds: 0, silence_timeout_seconds: 0, help_nudge_interval_seconds: 0, help_nudge_min_messages: 0 })).toEqual({
      actor_idle_timeout_seconds: 0,
      keepalive_delay_seconds: 0,
      keepalive_max_per_actor: 3,
      silence_timeout_seconds: 0,
      help_nudge_interval_seconds: 0,
      help_nudge_min_messages: 0,
    });
    expect(builtinSettings(undefined)).toMatchObject({ keepalive_delay_seconds: 120, help_nudge_interval_seconds: 600, help_nudge_min_messages: 10, silence_timeout_seconds: 0 });
  });
});

describe('silence check', () => {
  const base = { timeoutSeconds: 600, lastActivityMs: T0, count: 0 };
  it('is quiet until the timeout, checks once per timeout, and idles the group on the second', () => {
    expect(silenceDecision({ ...base, timeoutSeconds: 0, nowMs: T0 + 3600 * S })).toEqual({ kind: 'none' });
    expect(silenceDecision({ ...base, lastActivityMs: undefined, nowMs: T0 + 3600 * S })).toEqual({ kind: 'none' });
    expect(silenceDecision({ ...base, nowMs: T0 + 599 * S })).toEqual({ kind: 'none' });
    expect(silenceDecision({ ...base, nowMs: T0 + 600 * S })).toEqual({ kind: 'check', silentSeconds: 600, count: 1 });
    expect(silenceDecision({ ...base, count: 1, lastNotifyMs: T0 + 600 * S, nowMs: T0 + 900 * S })).toEqual({ kind: 'none' });
    expect(silenceDecision({ ...base, count: 1, lastNotifyMs: T0 + 600 * S, nowMs: T0 + 1200 * S })).toEqual({ kind: 'auto_idle', silentSeconds: 1200, count: 2 });
    expect(silenceDecision({ ...base, count: 1, lastActivityMs: T0 + 1000 * S, nowMs: T0 + 1200 * S })).toEqual({ kind: 'reset' });
  });
});

describe('keepalive', () => {
  const next = { text: 'Next: write the tests', ms: T0 };
  const input = { delaySeconds: 120, max: 2, next, nowMs: T0, state: {}, parse: parseRfc3339 };
  it('nudges after the delay, spaced by the delay, at most max per declaration; a new declaration starts over', () => {
    expect(declaredNext('done.\n  next: write the tests\nbye')).toBe('next: write the tests');
    expect(declaredNext('nothing planned')).toBeUndefined();
    expect(keepaliveDecision({ ...input, nowMs: T0 + 119 * S }).due).toBe(false);
    const first = keepaliveDecision({ ...input, nowMs: T0 + 120 * S });
    expect(first).toEqual({ due: true, state: { keepalive_count: 1, last_keepalive_next: 'Next: write the tests' } });
    const sent = { ...first.state, last_keepalive_at: '2026-12-02T12:02:00Z' };
    expect(keepaliveDecision({ ...input, state: sent, nowMs: T0 + 200 * S }).due).toBe(false);
    const second = keepaliveDecision({ ...input, state: sent, nowMs: T0 + 240 * S });
    expect(second.due).toBe(true);
    expect(keepaliveDecision({ ...input, state: { ...second.state, last_keepalive_at: '2026-12-02T12:04:00Z' }, nowMs: T0 + 3600 * S }).due).toBe(false);
    expect(keepaliveDecision({ ...input, next: { text: 'Next: ship', ms: T0 + 3000 * S }, state: second.state, nowMs: T0 + 3120 * S }).due).toBe(true);
    expect(keepaliveDecision({ ...input, baselineMs: T0 + 1000 * S, nowMs: T0 + 1100 * S }).due).toBe(false);
    expect(keepaliveDecision({ ...input, delaySeconds: 0, nowMs: T0 + 3600 * S }).due).toBe(false);
  });
});

describe('help nudge', () => {
  it('needs both the interval and the message count; the first look starts the clock', () => {
    const base = { intervalSeconds: 600, minMessages: 3, messagesSince: 0, nowMs: T0 };
    expect(helpNudgeDecision({ ...base, intervalSeconds: 0 })).toBe('off');
    expect(helpNudgeDecision({ ...base, minMessages: 0 })).toBe('off');
    expect(helpNudgeDecision(base)).toBe('establish');
    expect(helpNudgeDecision({ ...base, lastNudgeMs: T0, messagesSince: 5, nowMs: T0 + 599 * S })).toBe('wait');
    expect(helpNudgeDecision({ ...base, lastNudgeMs: T0, messagesSince: 2, nowMs: T0 + 600 * S })).toBe('wait');
    expect(helpNudgeDecision({ ...base, lastNudgeMs: T0, messagesSince: 3, nowMs: T0 + 600 * S })).toBe('due');
  });
});

describe('actor idle', () => {
  it('reports after the timeout since the later of activity and first sight, once per timeout', () => {
    expect(actorIdleDecision({ timeoutSeconds: 0, sinceMs: T0, nowMs: T0 + 3600 * S })).toBe('off');
    expect(actorIdleDecision({ timeoutSeconds: 300, sinceMs: T0, nowMs: T0 + 299 * S })).toBe('wait');
    expect(actorIdleDecision({ timeoutSeconds: 300, sinceMs: T0, nowMs: T0 + 300 * S })).toBe('due');
    expect(actorIdleDecision({ timeoutSeconds: 300, sinceMs: T0, lastNotifyMs: T0 + 300 * S, nowMs: T0 + 500 * S })).toBe('wait');
    expect(actorIdleDecision({ timeoutSeconds: 300, sinceMs: T0, lastNotifyMs: T0 + 300 * S, nowMs: T0 + 600 * S })).toBe('due');
  });
});
