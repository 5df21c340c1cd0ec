import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, fakeAgentGroup, groupWithTeam, DaemonFixture, FAST_ENV } from '../../test-support/daemon-fixture.js';

// The built-in automation behind group_settings_update's automation keys (silence check and
// auto-idle, help nudge), through a real daemon with the scheduler's clock pinned relative to
// the ledger's real timestamps.

describe('built-in automation settings', () => {
  let d: DaemonFixture;
  beforeAll(async () => {
    d = await DaemonFixture.start({ env: { ...FAST_ENV, CCCC_AUTOMATION_TICK_MS: '0' } });
  });
  afterAll(async () => {
    d?.services.automationClock.set(undefined);
    await d?.[Symbol.asyncDispose]();
  });
  const tickAt = async (ms: number) => {
    d.services.automationClock.set(ms);
    await d.services.automationScheduler.tick();
  };
  const notifies = (gid: string, kind: string) => events(d, gid).filter((e) => e.kind === 'system.notify' && e.data['kind'] === kind);

  it('new groups have them off: nothing is sent however long the group stays quiet', async () => {
    const gid = await groupWithTeam(d, 'off');
    await d.call('send', { group_id: gid, text: 'hello', to: ['p1'], message_mode: 'mail' });
    await tickAt(Date.now() + 10 * 3600_000);
    expect(events(d, gid).filter((e) => e.kind === 'system.notify')).toEqual([]);
  });

  it('silence check: one notice to the foreman per timeout, then the group goes idle; paused groups are left alone', async () => {
    const gid = await groupWithTeam(d, 'quiet');
    await d.call('group_settings_update', { group_id: gid, patch: { silence_timeout_seconds: 60 } });
    await d.call('send', { group_id: gid, text: 'kick-off', to: ['p1'], message_mode: 'mail' });
    const t = Date.now();
    await tickAt(t + 30_000);
    expect(notifies(gid, 'silence_check')).toEqual([]);
    await tickAt(t + 61_000);
    expect(notifies(gid, 'silence_check')).toEqual([expect.objectContaining({ by: 'system', data: expect.objectContaining({ target_actor_id: 'lead', title: 'Group is quiet' }) })]);
    await tickAt(t + 90_000);
    expect(notifies(gid, 'silence_check')).toHaveLength(1);
    await tickAt(t + 122_000);
    expect(notifies(gid, 'auto_idle')).toHaveLength(1);
    expect((await d.call('group_show', { group_id: gid })).group['state']).toBe('idle');
    // Idle: the built-ins stop.
    await tickAt(t + 600_000);
    expect(notifies(gid, 'silence_check')).toHaveLength(1);
    expect(notifies(gid, 'auto_idle')).toHaveLength(1);
  });

  it('activity resets the silence count', async () => {
    const gid = await groupWithTeam(d, 'chatty');
    await d.call('group_settings_update', { group_id: gid, patch: { silence_timeout_seconds: 60 } });
    await d.call('send', { group_id: gid, text: 'one', to: ['p1'], message_mode: 'mail' });
    const t = Date.now();
    await tickAt(t + 61_000);
    expect(notifies(gid, 'silence_check')).toHaveLength(1);
    await d.call('send', { group_id: gid, text: 'two', to: ['p1'], message_mode: 'mail' });
    await tickAt(Date.now() + 1000);
    // Quiet again past the timeout (and a timeout after the last notice): a first check again, not idle.
    await tickAt(t + 61_000 + 62_000);
    expect(notifies(gid, 'silence_check')).toHaveLength(2);
    expect(notifies(gid, 'auto_idle')).toEqual([]);
  });

  it('help nudge: after the interval and enough messages to an actor, remind it of cccc_help', async () => {
    const gid = await groupWithTeam(d, 'nudge');
    await d.call('group_settings_update', { group_id: gid, patch: { help_nudge_interval_seconds: 60, help_nudge_min_messages: 2 } });
    const t = Date.now() - 1000;
    await tickAt(t);
    await d.call('send', { group_id: gid, text: 'first', to: ['p1'], message_mode: 'mail' });
    await tickAt(t + 61_000);
    expect(notifies(gid, 'help_nudge')).toEqual([]);
    await d.call('send', { group_id: gid, text: 'second', to: ['p1'], message_mode: 'mail' });
    await tickAt(t + 62_000);
    const nudged = notifies(gid, 'help_nudge');
    expect(nudged).toHaveLength(1);
    expect(nudged[0]!.data).toMatchObject({ target_actor_id: 'p1', message: expect.stringContaining('cccc_help') });
    await tickAt(t + 63_000);
    expect(notifies(gid, 'help_nudge')).toHaveLength(1);
  });

  it('keepalive: a running actor that declared "Next:" and went quiet is nudged, at most max times', async () => {
    const gid = await fakeAgentGroup(d, { peer1: [] });
    await d.call('group_settings_update', { group_id: gid, patch: { keepalive_delay_seconds: 60, keepalive_max_per_actor: 1 } });
    await d.call('group_start', { group_id: gid });
    await d.call('send', { group_id: gid, by: 'peer1', text: 'Done with parsing.\nNext: wire the scheduler', to: ['user'], message_mode: 'send' });
    const t = Date.now();
    await tickAt(t + 30_000);
    expect(notifies(gid, 'keepalive')).toEqual([]);
    await tickAt(t + 61_000);
    expect(notifies(gid, 'keepalive').map((e) => e.data)).toEqual([expect.objectContaining({ target_actor_id: 'peer1', message: expect.stringContaining('Next: wire the scheduler') })]);
    await tickAt(t + 600_000);
    expect(notifies(gid, 'keepalive')).toHaveLength(1);
    await d.call('group_stop', { group_id: gid });
  });

  it('actor idle: a running peer quiet for the timeout is reported to the foreman, once per timeout', async () => {
    const gid = await fakeAgentGroup(d, { lead: [], peer1: [] });
    await d.call('group_settings_update', { group_id: gid, patch: { actor_idle_timeout_seconds: 60 } });
    await d.call('group_start', { group_id: gid });
    const t = Date.now();
    await tickAt(t);
    await tickAt(t + 59_000);
    expect(notifies(gid, 'actor_idle')).toEqual([]);
    await tickAt(t + 61_000);
    expect(notifies(gid, 'actor_idle').map((e) => e.data)).toEqual([expect.objectContaining({ target_actor_id: 'lead', title: 'Actor peer1 may need attention' })]);
    await tickAt(t + 90_000);
    expect(notifies(gid, 'actor_idle')).toHaveLength(1);
    await tickAt(t + 122_000);
    expect(notifies(gid, 'actor_idle')).toHaveLength(2);
    await d.call('group_stop', { group_id: gid });
  });
});
