import { describe, expect, it } from 'vitest';
import { peerView, ruleRefusal } from './access.js';
import { BUILTIN_SNIPPETS, checkRuleset, effectiveSnippets, parseRule, renderSnippet, splitSnippets } from './ruleset.js';

const code = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (e) {
    return (e as { code: string }).code;
  }
};

describe('rule validation', () => {
  it('refuses empty and duplicate ids, bad cron, time zone and at, and non-at group_state/actor_control', () => {
    const trig = { kind: 'interval', every_seconds: 60 } as const;
    expect(code(() => checkRuleset({ rules: [{ id: ' ', trigger: trig }], snippets: {} }))).toBe('invalid_rule');
    expect(code(() => checkRuleset({ rules: [{ id: 'd', trigger: trig }, { id: 'd', trigger: trig }], snippets: {} }))).toBe('invalid_rule');
    expect(code(() => parseRule({ id: 'x', trigger: { kind: 'cron', cron: '* * *' } }, 'rule'))).toBe('invalid_rule');
    expect(code(() => parseRule({ id: 'x', trigger: { kind: 'cron', cron: '0 9 * * *', timezone: 'Mars/Base' } }, 'rule'))).toBe('invalid_rule');
    expect(code(() => parseRule({ id: 'x', trigger: { kind: 'at', at: 'tomorrow' } }, 'rule'))).toBe('invalid_rule');
    expect(code(() => parseRule({ id: 'x', trigger: { kind: 'at', at: '2030-01-01T00:00:00' } }, 'rule'))).toBe('invalid_rule');
    expect(code(() => parseRule({ id: 'x', trigger: trig, action: { kind: 'group_state', state: 'paused' } }, 'rule'))).toBe('invalid_rule');
    expect(code(() => parseRule({ id: 'x', trigger: trig, action: { kind: 'actor_control', operation: 'stop' } }, 'rule'))).toBe('invalid_rule');
    expect(code(() => parseRule({ id: 'x', trigger: { kind: 'at', at: '2030-01-01T00:00:00Z' }, action: { kind: 'group_state', state: 'paused' } }, 'rule'))).toBe('ok');
    expect(code(() => parseRule({ id: 'x', scope: 'personal', trigger: trig }, 'rule'))).toBe('invalid_rule');
    // Unknown fields anywhere in a rule are refused.
    expect(code(() => parseRule({ id: 'x', trigger: trig, colour: 'red' }, 'rule'))).toBe('invalid_rule');
    expect(code(() => parseRule({ id: 'x', trigger: { ...trig, every_minutes: 1 } }, 'rule'))).toBe('invalid_rule');
    expect(code(() => parseRule({ id: 'x', trigger: trig, action: { kind: 'notify', message: 'm', template: 't' } }, 'rule'))).toBe('invalid_rule');
  });

  it('a group rule drops any owner', () => {
    expect(parseRule({ id: 'x', owner_actor_id: 'p1', trigger: { kind: 'interval', every_seconds: 60 } }, 'rule')).toMatchObject({ scope: 'group', owner_actor_id: null });
  });
});

describe('snippets', () => {
  it('stores only custom snippets and overrides that differ; reads built-ins first', () => {
    expect(splitSnippets({ standup: BUILTIN_SNIPPETS['standup']!, mine: 'x' })).toEqual({ snippets: { mine: 'x' }, snippet_overrides: {} });
    expect(splitSnippets({ standup: 'short' })).toEqual({ snippets: {}, snippet_overrides: { standup: 'short' } });
    expect(effectiveSnippets({ snippet_overrides: { standup: 'short' }, snippets: { mine: 'x' } })).toEqual({ standup: 'short', mine: 'x' });
  });

  it('renders exactly the supported variables', () => {
    const vars = { interval_minutes: '15', group_title: 'team', actor_names: 'Lead, P1', scheduled_at: '2026-12-02T12:00:00Z' };
    expect(renderSnippet('{{group_title}} every {{ interval_minutes }}m at {{scheduled_at}}: {{actor_names}} {{secret}}', vars)).toBe('team every 15m at 2026-12-02T12:00:00Z: Lead, P1 ');
  });
});

describe('who manages which rule', () => {
  const notify = { id: 'n', trigger: { kind: 'interval', every_seconds: 60 } as const, action: { kind: 'notify' as const, message: 'hi' } };
  it('user: all; foreman: notify only; peer: its own personal rule targeting itself', () => {
    const stateRule = { id: 's', trigger: { kind: 'at', at: '2030-01-01T00:00:00Z' } as const, action: { kind: 'group_state' as const, state: 'paused' as const } };
    expect(ruleRefusal('user', 'user', stateRule)).toBeUndefined();
    expect(ruleRefusal('foreman', 'lead', stateRule)).toMatch(/notify/);
    expect(ruleRefusal('foreman', 'lead', { ...notify, scope: 'group' })).toBeUndefined();
    expect(ruleRefusal('peer', 'p1', { ...notify, scope: 'group' })).toMatch(/personal/);
    expect(ruleRefusal('peer', 'p1', { ...notify, scope: 'personal', owner_actor_id: 'p2', to: ['p2'] })).toMatch(/personal/);
    expect(ruleRefusal('peer', 'p1', { ...notify, scope: 'personal', owner_actor_id: 'p1', to: ['@all'] })).toMatch(/itself/);
    expect(ruleRefusal('peer', 'p1', { ...notify, scope: 'personal', owner_actor_id: 'p1', to: ['p1'] })).toBeUndefined();
  });

  it("a peer's view: group rules, its own personal rules, and only the snippets they use", () => {
    const view = peerView(
      {
        rules: [
          { id: 'g', scope: 'group', trigger: notify.trigger, action: { snippet_ref: 'standup' } },
          { id: 'mine', scope: 'personal', owner_actor_id: 'p1', trigger: notify.trigger },
          { id: 'theirs', scope: 'personal', owner_actor_id: 'p2', trigger: notify.trigger, action: { snippet_ref: 'secret' } },
        ],
        snippets: { standup: 's', secret: 'x' },
      },
      'p1',
    );
    expect(view.rules.map((r) => r.id)).toEqual(['g', 'mine']);
    expect(view.snippets).toEqual({ standup: 's' });
  });
});
