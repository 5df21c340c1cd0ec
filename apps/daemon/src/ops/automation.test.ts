import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, groupWithTeam, waitFor, DaemonFixture } from '../../test-support/daemon-fixture.js';

// §8.3 group_automation_* through the daemon's socket, and the scheduler driven with a pinned
// clock (plus one real-time run). Ports the scenarios of the reference's
// tests/test_automation_*.py and test_group_automation_baseline.py.

const T0 = Date.parse('2026-12-02T12:00:00Z');
const MIN = 60_000;
const every = (id: string, seconds: number, extra: Record<string, unknown> = {}) => ({
  id,
  enabled: true,
  scope: 'group' as const,
  to: ['@foreman'],
  trigger: { kind: 'interval' as const, every_seconds: seconds },
  action: { kind: 'notify' as const, message: `tick from ${id}` },
  ...extra,
});

describe('group automation (§8.3)', () => {
  let d: DaemonFixture;
  beforeAll(async () => {
    d = await DaemonFixture.start({ env: { CCCC_AUTOMATION_TICK_MS: '0' } });
  });
  afterAll(async () => {
    d?.services.automationClock.set(undefined);
    await d?.[Symbol.asyncDispose]();
  });

  const clock = () => d.services.automationClock;
  const tick = () => d.services.automationScheduler.tick();
  const groupYaml = (gid: string) => readFileSync(join(d.home, 'groups', gid, 'group.yaml'), 'utf8');
  const statePath = (gid: string) => join(d.home, 'groups', gid, 'state', 'automation.json');
  const stateFile = (gid: string) => JSON.parse(readFileSync(statePath(gid), 'utf8'));
  const notifies = (gid: string) => events(d, gid).filter((e) => e.kind === 'system.notify');
  const updates = (gid: string) => events(d, gid).filter((e) => e.kind === 'group.automation_update');
  const setRules = (gid: string, rules: unknown[], snippets: Record<string, string> = {}) =>
    d.call('group_automation_update', { group_id: gid, ruleset: { rules: rules as never, snippets } });

  describe('ops', () => {
    it('a new group has the baseline: standup seeded but off, built-in snippet, exact supported_vars', async () => {
      const gid = await groupWithTeam(d);
      const state = await d.call('group_automation_state', { group_id: gid });
      expect(state).toMatchObject({ group_id: gid, version: 1, supported_vars: ['interval_minutes', 'group_title', 'actor_names', 'scheduled_at'], config_path: join(d.home, 'groups', gid, 'group.yaml') });
      expect(state.ruleset.rules).toEqual([expect.objectContaining({ id: 'standup', enabled: false, to: ['@foreman'], trigger: { kind: 'interval', every_seconds: 900 } })]);
      expect(state.ruleset.snippets['standup']).toContain('cccc_help');
      expect(state.status['standup']).toEqual({ last_fired_at: '', last_error_at: '', last_error: '', next_fire_at: '', completed: false, completed_at: '' });
      expect(Date.parse(state.server_now)).not.toBeNaN();
    });

    it('update replaces the ruleset, bumps the version, appends one event; clearing keeps built-in snippets', async () => {
      const gid = await groupWithTeam(d);
      const res = await d.call('group_automation_update', { group_id: gid, expected_version: 1, ruleset: { rules: [every('hourly', 3600)], snippets: { mine: 'hello {{group_title}}' } } });
      expect(res).toMatchObject({ version: 2, event: { kind: 'group.automation_update', by: 'user', data: { rules: ['hourly'], snippets: ['mine'], version: 2 } } });
      expect(res.ruleset.snippets).toMatchObject({ mine: 'hello {{group_title}}', standup: expect.any(String) });
      const cleared = await setRules(gid, []);
      expect(cleared.version).toBe(3);
      expect(cleared.ruleset).toEqual({ rules: [], snippets: { standup: expect.any(String) } });
      expect(groupYaml(gid)).toContain('version: 3');
      expect(groupYaml(gid)).toContain('silence_timeout_seconds: 0');
      expect(updates(gid)).toHaveLength(2);
    });

    it('optimistic concurrency: a stale expected_version is version_conflict and changes nothing', async () => {
      const gid = await groupWithTeam(d);
      await setRules(gid, [every('a', 60)]);
      const before = groupYaml(gid);
      for (const [op, extra] of [
        ['group_automation_update', { ruleset: { rules: [], snippets: {} } }],
        ['group_automation_manage', { actions: [{ type: 'delete_rule', rule_id: 'a' }] }],
        ['group_automation_reset_baseline', {}],
      ] as const) {
        const error = await d.errorOf(op, { group_id: gid, expected_version: 1, ...extra });
        expect(error.code, op).toBe('version_conflict');
        expect(error.details).toMatchObject({ expected_version: 1, current_version: 2 });
      }
      expect(groupYaml(gid)).toBe(before);
      expect(updates(gid)).toHaveLength(1);
    });

    it('refuses unknown fields, empty or duplicate ids, bad triggers and invalid trigger/action pairs; nothing is written', async () => {
      const gid = await groupWithTeam(d);
      const before = groupYaml(gid);
      const bad: Array<[unknown, string]> = [
        [{ ...every('x', 60), colour: 'red' }, 'invalid_request'],
        [{ ...every('x', 60), trigger: { kind: 'interval', every_minutes: 1 } }, 'invalid_request'],
        [{ ...every('x', 60), action: { type: 'notify', message_template: 'x' } }, 'invalid_request'],
        [{ ...every('x', 0) }, 'invalid_request'],
        [every('', 60), 'invalid_rule'],
        [{ ...every('x', 60), trigger: { kind: 'cron', cron: '0 9 * *' } }, 'invalid_rule'],
        [{ ...every('x', 60), trigger: { kind: 'cron', cron: '0 9 * * *', timezone: 'Mars/Base' } }, 'invalid_rule'],
        [{ ...every('x', 60), trigger: { kind: 'at', at: 'next tuesday' } }, 'invalid_rule'],
        [{ ...every('x', 60), action: { kind: 'group_state', state: 'paused' } }, 'invalid_rule'],
        [{ ...every('x', 60), action: { kind: 'actor_control', operation: 'stop', targets: ['p1'] } }, 'invalid_rule'],
        [{ ...every('x', 60), scope: 'personal' }, 'invalid_rule'],
      ];
      for (const [rule, code] of bad) {
        expect(await d.codeOf('group_automation_update', { group_id: gid, ruleset: { rules: [rule], snippets: {} } }), JSON.stringify(rule)).toBe(code);
      }
      expect(await d.codeOf('group_automation_update', { group_id: gid, ruleset: { rules: [every('d', 60), every('d', 120)], snippets: {} } })).toBe('invalid_rule');
      expect(await d.codeOf('group_automation_manage', { group_id: gid, actions: [{ type: 'create_rule', rule: { ...every('x', 60), colour: 1 } }] })).toBe('invalid_rule');
      expect(await d.codeOf('group_automation_manage', { group_id: gid, actions: [{ type: 'explode' }] })).toBe('invalid_request');
      expect(await d.codeOf('group_automation_manage', { group_id: gid, actions: [] })).toBe('invalid_request');
      expect(await d.codeOf('group_automation_state', { group_id: 'g_000000000000' })).toBe('group_not_found');
      expect(groupYaml(gid)).toBe(before);
      expect(updates(gid)).toEqual([]);
    });

    it('manage: create, update, enable, delete, replace; all or nothing; an unchanged result appends nothing', async () => {
      const gid = await groupWithTeam(d);
      const res = await d.call('group_automation_manage', {
        group_id: gid,
        expected_version: 1,
        actions: [
          { type: 'create_rule', rule: every('a', 60) },
          { type: 'update_rule', rule: every('a', 120) },
          { type: 'set_rule_enabled', rule_id: 'standup', enabled: true },
        ],
      });
      expect(res).toMatchObject({ changed: true, version: 2, applied_actions: [{ type: 'create_rule', rule_id: 'a' }, { type: 'update_rule', rule_id: 'a' }, { type: 'set_rule_enabled', rule_id: 'standup', enabled: true }] });
      expect(res.ruleset.rules.map((r) => [r['id'], r['enabled']])).toEqual([['standup', true], ['a', true]]);
      expect(await d.codeOf('group_automation_manage', { group_id: gid, actions: [{ type: 'create_rule', rule: every('a', 60) }] })).toBe('rule_exists');
      expect(await d.codeOf('group_automation_manage', { group_id: gid, actions: [{ type: 'delete_rule', rule_id: 'a' }, { type: 'delete_rule', rule_id: 'ghost' }] })).toBe('rule_not_found');
      expect((await d.call('group_automation_state', { group_id: gid })).ruleset.rules.map((r) => r['id'])).toEqual(['standup', 'a']);
      const same = await d.call('group_automation_manage', { group_id: gid, actions: [{ type: 'set_rule_enabled', rule_id: 'a', enabled: true }] });
      expect(same).toMatchObject({ changed: false, event: null, version: 2 });
      const replaced = await d.call('group_automation_manage', { group_id: gid, actions: [{ type: 'replace_all_rules', ruleset: { rules: [every('only', 300)], snippets: { s: 'x' } } }] });
      expect(replaced.ruleset.rules.map((r) => r['id'])).toEqual(['only']);
      expect(replaced.event).toMatchObject({ data: { rules: ['only'], version: 3 } });
      const reset = await d.call('group_automation_reset_baseline', { group_id: gid });
      expect(reset).toMatchObject({ version: 4, event: { kind: 'group.automation_update' } });
      expect(reset.ruleset.rules.map((r) => [r['id'], r['enabled']])).toEqual([['standup', false]]);
      expect(reset.ruleset.snippets).toEqual({ standup: expect.any(String) });
    });

    it('permissions: foreman notify rules only; a peer only its own personal rule targeting itself, and a filtered view', async () => {
      const gid = await groupWithTeam(d);
      const pauseAt = { id: 'pause', trigger: { kind: 'at', at: '2030-01-01T00:00:00Z' }, action: { kind: 'group_state', state: 'paused' } };
      expect(await d.codeOf('group_automation_update', { group_id: gid, by: 'lead', ruleset: { rules: [pauseAt], snippets: {} } })).toBe('permission_denied');
      await d.call('group_automation_update', { group_id: gid, by: 'lead', ruleset: { rules: [every('team', 600)], snippets: {} } });
      await d.call('group_automation_manage', { group_id: gid, actions: [{ type: 'create_rule', rule: pauseAt }] });
      expect(await d.codeOf('group_automation_manage', { group_id: gid, by: 'lead', actions: [{ type: 'delete_rule', rule_id: 'pause' }] })).toBe('permission_denied');

      const mine = { ...every('mine', 600), scope: 'personal', owner_actor_id: 'p1', to: ['p1'] };
      expect(await d.codeOf('group_automation_update', { group_id: gid, by: 'p1', ruleset: { rules: [mine], snippets: {} } })).toBe('permission_denied');
      for (const rule of [every('grp', 60), { ...mine, owner_actor_id: 'lead' }, { ...mine, to: ['@all'] }, { ...mine, to: ['p1', 'lead'] }]) {
        expect(await d.codeOf('group_automation_manage', { group_id: gid, by: 'p1', actions: [{ type: 'create_rule', rule }] }), JSON.stringify(rule)).toBe('permission_denied');
      }
      expect(await d.codeOf('group_automation_manage', { group_id: gid, by: 'p1', actions: [{ type: 'set_rule_enabled', rule_id: 'team', enabled: false }] })).toBe('permission_denied');
      expect(await d.codeOf('group_automation_manage', { group_id: gid, by: 'p1', actions: [{ type: 'replace_all_rules', ruleset: { rules: [], snippets: {} } }] })).toBe('permission_denied');
      expect((await d.call('group_automation_manage', { group_id: gid, by: 'p1', actions: [{ type: 'create_rule', rule: mine }] })).changed).toBe(true);
      await d.call('group_automation_manage', { group_id: gid, actions: [{ type: 'create_rule', rule: { ...mine, id: 'lead-own', owner_actor_id: 'lead', to: ['lead'] } }] });

      const peer = await d.call('group_automation_state', { group_id: gid, by: 'p1' });
      // Group rules (whatever their action) and its own personal rule; not the foreman's personal one.
      expect(peer.ruleset.rules.map((r) => r['id'])).toEqual(['team', 'pause', 'mine']);
      expect(Object.keys(peer.status)).toEqual(['team', 'pause', 'mine']);
      expect((await d.call('group_automation_state', { group_id: gid, by: 'lead' })).ruleset.rules.map((r) => r['id'])).toEqual(['team', 'pause', 'mine', 'lead-own']);
      expect(await d.codeOf('group_automation_state', { group_id: gid, by: 'stranger' })).toBe('permission_denied');
      expect(await d.codeOf('group_automation_manage', { group_id: gid, by: 'stranger', actions: [{ type: 'delete_rule', rule_id: 'mine' }] })).toBe('permission_denied');
      expect((await d.call('group_automation_manage', { group_id: gid, by: 'p1', actions: [{ type: 'delete_rule', rule_id: 'mine' }] })).changed).toBe(true);
    });

    it('a failed event append puts group.yaml and the state file back', async () => {
      const gid = await groupWithTeam(d);
      await setRules(gid, [every('a', 60)]);
      writeFileSync(statePath(gid), JSON.stringify({ v: 5, rules: { a: { clock_at: '2026-01-01T00:00:00Z' } } }));
      const yaml = groupYaml(gid);
      const state = readFileSync(statePath(gid), 'utf8');
      const ledgers = d.services.ledgers;
      const append = ledgers.append.bind(ledgers);
      ledgers.append = (() => Promise.reject(new Error('forced ledger failure'))) as typeof ledgers.append;
      try {
        expect(await d.codeOf('group_automation_update', { group_id: gid, ruleset: { rules: [every('b', 60)], snippets: {} } })).toBe('internal_error');
      } finally {
        ledgers.append = append;
      }
      expect(readFileSync(statePath(gid), 'utf8')).toBe(state);
      expect((await d.call('group_automation_state', { group_id: gid })).ruleset.rules.map((r) => r['id'])).toEqual(['a']);
      expect(groupYaml(gid).replace(/updated_at: .*/, '')).toBe(yaml.replace(/updated_at: .*/, ''));
    });

    it('retiming a one-time rule clears its completion', async () => {
      const gid = await groupWithTeam(d);
      const once = (at: string) => ({ ...every('once', 60), trigger: { kind: 'at', at } });
      await setRules(gid, [once('2030-01-01T00:00:00Z')]);
      writeFileSync(statePath(gid), JSON.stringify({ v: 5, rules: { once: { at_fired: true, last_slot_key: 'at:2030-01-01T00:00:00Z', last_fired_at: '2030-01-01T00:00:00Z', completed_at: '2030-01-01T00:00:00Z' } } }));
      await setRules(gid, [once('2030-01-01T00:00:00Z')]);
      expect(stateFile(gid).rules.once.at_fired).toBe(true);
      await setRules(gid, [once('2030-01-02T00:00:00Z')]);
      expect(stateFile(gid).rules.once).toEqual({});
      expect((await d.call('group_automation_state', { group_id: gid })).status['once']).toMatchObject({ completed: false, next_fire_at: '2030-01-02T00:00:00Z' });
    });
  });

  describe('scheduler (pinned clock)', () => {
    it('interval: the first tick sets the clock; each period appends a durable system.notify per enabled recipient', async () => {
      const gid = await groupWithTeam(d, 'ticking');
      clock().set(T0);
      await setRules(gid, [every('standupish', 900, { to: ['@all'], action: { kind: 'notify', title: 'Check-in', snippet_ref: 'mine', priority: 'high' } })], { mine: '{{group_title}} every {{interval_minutes}}m at {{scheduled_at}} for {{actor_names}} {{nope}}' });
      await tick();
      expect(notifies(gid)).toEqual([]);
      expect(stateFile(gid).rules.standupish.clock_at).toBe('2026-12-02T12:00:00Z');
      clock().set(T0 + 14 * MIN);
      await tick();
      expect(notifies(gid)).toEqual([]);
      clock().set(T0 + 15 * MIN + 2000);
      await tick();
      const sent = notifies(gid);
      expect(sent.map((e) => e.data['target_actor_id'])).toEqual(['lead', 'p1']);
      expect(sent[0]).toMatchObject({
        by: 'system',
        data: { kind: 'automation', priority: 'high', title: 'Check-in', message: 'ticking every 15m at 2026-12-02T12:15:00Z for lead, p1', context: { rule_id: 'standupish', scheduled_at: '2026-12-02T12:15:00Z' } },
      });
      const status = (await d.call('group_automation_state', { group_id: gid })).status['standupish'];
      expect(status).toMatchObject({ last_fired_at: '2026-12-02T12:15:02Z', next_fire_at: '2026-12-02T12:30:00Z', last_error: '' });
      // A long gap fires once, not a burst.
      clock().set(T0 + 120 * MIN);
      await tick();
      await tick();
      expect(notifies(gid)).toHaveLength(4);
    });

    it('disabled recipients do not count: nothing durable, nothing completed, the error is recorded', async () => {
      const gid = await groupWithTeam(d, 'nobody');
      await d.call('actor_stop', { group_id: gid, actor_id: 'lead' });
      clock().set(T0);
      await setRules(gid, [{ ...every('once', 60), trigger: { kind: 'at', at: '2026-12-02T12:05:00Z' } }]);
      clock().set(T0 + 6 * MIN);
      await tick();
      expect(notifies(gid)).toEqual([]);
      const status = (await d.call('group_automation_state', { group_id: gid })).status['once'];
      expect(status).toMatchObject({ completed: false, last_error: 'no enabled recipient matches the rule', next_fire_at: '2026-12-02T12:05:00Z' });
      // Once the foreman is enabled again (without running), the one-time rule completes and turns itself off.
      await d.call('actor_update', { group_id: gid, actor_id: 'lead', patch: { enabled: true } });
      await tick();
      expect(notifies(gid).map((e) => e.data['target_actor_id'])).toEqual(['lead']);
    });

    it('at: fires once, completes only after the notify is durable, and disables itself in group.yaml', async () => {
      const gid = await groupWithTeam(d, 'once');
      clock().set(T0);
      await setRules(gid, [{ ...every('once', 60), to: ['p1'], trigger: { kind: 'at', at: '2026-12-02T12:30:00Z' } }]);
      await tick();
      clock().set(T0 + 30 * MIN);
      await tick();
      await tick();
      expect(notifies(gid).map((e) => e.data['target_actor_id'])).toEqual(['p1']);
      const state = await d.call('group_automation_state', { group_id: gid });
      expect(state.status['once']).toMatchObject({ completed: true, completed_at: '2026-12-02T12:30:00Z', next_fire_at: '' });
      expect(state.ruleset.rules[0]).toMatchObject({ id: 'once', enabled: false });
      expect(updates(gid).at(-1)).toMatchObject({ by: 'system', data: { rules: ['once'] } });
    });

    it('paused and stopped groups run nothing; resume never catches up', async () => {
      const gid = await groupWithTeam(d, 'paused');
      clock().set(T0);
      await setRules(gid, [every('ivl', 600), { ...every('missed', 60), trigger: { kind: 'at', at: '2026-12-02T12:20:00Z' } }, { ...every('later', 60), trigger: { kind: 'at', at: '2026-12-02T13:30:00Z' } }]);
      await tick();
      await d.call('group_set_state', { group_id: gid, state: 'paused' });
      clock().set(T0 + 60 * MIN);
      await tick();
      expect(notifies(gid)).toEqual([]);
      await d.call('group_set_state', { group_id: gid, state: 'active' });
      clock().set(T0 + 60 * MIN + 5000);
      await tick();
      expect(notifies(gid)).toEqual([]);
      const st = stateFile(gid).rules;
      expect(st.ivl.clock_at).toBe('2026-12-02T13:00:05Z');
      expect(st.missed).toMatchObject({ at_fired: true, skipped: true });
      const status = (await d.call('group_automation_state', { group_id: gid })).status;
      expect(status['missed']).toMatchObject({ completed: true });
      expect(status['later']).toMatchObject({ completed: false, next_fire_at: '2026-12-02T13:30:00Z' });
      clock().set(T0 + 90 * MIN);
      await tick();
      // The interval fires once for its newest slot on the rebased clock; the future one-time rule fires.
      expect(notifies(gid).map((e) => e.data['context'])).toEqual([
        { rule_id: 'ivl', scheduled_at: '2026-12-02T13:20:05Z' },
        { rule_id: 'later', scheduled_at: '2026-12-02T13:30:00Z' },
      ]);
    });

    it('an idle group runs user rules but suppresses the built-in standup', async () => {
      const gid = await groupWithTeam(d, 'idle');
      clock().set(T0);
      await setRules(gid, [every('standup', 60, { action: { kind: 'notify', snippet_ref: 'standup' } }), every('mine', 60)]);
      await tick();
      await d.call('group_set_state', { group_id: gid, state: 'idle' });
      clock().set(T0 + 61_000);
      await tick();
      expect(notifies(gid).map((e) => e.data['context'])).toEqual([{ rule_id: 'mine', scheduled_at: '2026-12-02T12:01:00Z' }]);
      // Back to active: the stand-up's missed slot is not caught up; its clock starts again.
      await d.call('group_set_state', { group_id: gid, state: 'active' });
      clock().set(T0 + 3 * MIN + 30_000);
      await tick();
      expect(notifies(gid).map((e) => e.data['context'])).toEqual([{ rule_id: 'mine', scheduled_at: '2026-12-02T12:01:00Z' }]);
      clock().set(T0 + 4 * MIN + 31_000);
      await tick();
      expect(notifies(gid).filter((e) => (e.data['context'] as { rule_id: string }).rule_id === 'standup')).toHaveLength(1);
    });

    it('cron with a time zone fires at the local minute', async () => {
      const gid = await groupWithTeam(d, 'cron');
      clock().set(Date.parse('2026-12-02T13:50:00Z'));
      await setRules(gid, [{ ...every('ny9', 60), trigger: { kind: 'cron', cron: '0 9 * * 1-5', timezone: 'America/New_York' } }]);
      await tick();
      expect((await d.call('group_automation_state', { group_id: gid })).status['ny9']!.next_fire_at).toBe('2026-12-02T14:00:00Z');
      clock().set(Date.parse('2026-12-02T14:00:04Z'));
      await tick();
      await tick();
      expect(notifies(gid)).toHaveLength(1);
      expect((await d.call('group_automation_state', { group_id: gid })).status['ny9']!.next_fire_at).toBe('2026-12-03T14:00:00Z');
    });

    it('group_state and actor_control one-time actions run through the ops', async () => {
      const gid = await groupWithTeam(d, 'actions');
      clock().set(T0);
      await setRules(gid, [
        { id: 'pause', enabled: true, trigger: { kind: 'at', at: '2026-12-02T12:10:00Z' }, action: { kind: 'group_state', state: 'idle' } },
        { id: 'stop-p1', enabled: true, trigger: { kind: 'at', at: '2026-12-02T12:10:00Z' }, action: { kind: 'actor_control', operation: 'stop', targets: ['p1'] } },
      ]);
      clock().set(T0 + 10 * MIN);
      await tick();
      expect((await d.call('group_show', { group_id: gid })).group['state']).toBe('idle');
      expect((await d.call('actor_list', { group_id: gid })).actors.find((a) => a.id === 'p1')?.enabled).toBe(false);
      const status = (await d.call('group_automation_state', { group_id: gid })).status;
      expect(status['pause']).toMatchObject({ completed: true });
      expect(status['stop-p1']).toMatchObject({ completed: true });
    });
  });
});

describe('automation across a daemon restart', () => {
  it('keeps clocks and never fires work missed while down', async () => {
    let d = await DaemonFixture.start({ env: { CCCC_AUTOMATION_TICK_MS: '0' } });
    try {
      const gid = await groupWithTeam(d, 'restart');
      const now = Date.now();
      const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
      await d.call('group_automation_update', {
        group_id: gid,
        ruleset: { rules: [every('ivl', 600), { ...every('missed', 60), trigger: { kind: 'at', at: iso(now - 30 * MIN) } }, { ...every('cron', 60), trigger: { kind: 'cron', cron: '* * * * *' } }], snippets: {} },
      });
      const home = d.home;
      await d.daemon.stop('restart');
      // While "down" for an hour: the interval clock is an hour old, the at time has passed.
      const path = join(home, 'groups', gid, 'state', 'automation.json');
      writeFileSync(path, JSON.stringify({ v: 5, rules: { ivl: { clock_at: iso(now - 65 * MIN) }, cron: { clock_at: iso(now - 65 * MIN) } } }));
      d = await DaemonFixture.start({ home, env: { CCCC_AUTOMATION_TICK_MS: '0' } });
      await d.services.automationScheduler.tick();
      expect(events(d, gid).filter((e) => e.kind === 'system.notify')).toEqual([]);
      const rules = JSON.parse(readFileSync(path, 'utf8')).rules;
      expect(rules.missed).toMatchObject({ at_fired: true, skipped: true });
      expect(Date.parse(rules.ivl.clock_at)).toBe(Date.parse(iso(now - 65 * MIN)) + 6 * 600_000);
      expect(Date.parse(rules.cron.clock_at)).toBeGreaterThan(now - MIN);
    } finally {
      await d[Symbol.asyncDispose]();
    }
  });
});

describe('automation in real time', () => {
  it('a one-second interval rule notifies the foreman through the running scheduler', async () => {
    const d = await DaemonFixture.start({ env: { CCCC_AUTOMATION_TICK_MS: '200' } });
    try {
      const gid = await groupWithTeam(d, 'realtime');
      await d.call('group_automation_update', { group_id: gid, ruleset: { rules: [every('fast', 1)], snippets: {} } });
      const sent = await waitFor(() => events(d, gid).find((e) => e.kind === 'system.notify'), 10_000, 'an automation notify');
      expect(sent).toMatchObject({ by: 'system', data: { kind: 'automation', target_actor_id: 'lead', message: 'tick from fast' } });
    } finally {
      await d[Symbol.asyncDispose]();
    }
  });
});
