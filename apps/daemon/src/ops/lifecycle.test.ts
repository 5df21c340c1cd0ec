import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupWithTeam, DaemonFixture } from '../../test-support/daemon-fixture.js';

describe('lifecycle ops: desired state (the processes themselves: runtime/actor-runtime.test.ts)', () => {
  let d: DaemonFixture;
  beforeAll(async () => {
    d = await DaemonFixture.start();
  });
  afterAll(async () => {
    await d?.[Symbol.asyncDispose]();
  });

  it('group_start / group_stop: running flag, state active, enabled actors listed, actors keep desired state', async () => {
    const gid = await groupWithTeam(d);
    await d.call('group_set_state', { group_id: gid, state: 'paused' });
    await d.call('actor_stop', { group_id: gid, actor_id: 'p1' });

    const before = d.snapshot(gid);
    expect(await d.codeOf('group_start', { group_id: gid, by: 'p1' })).toBe('permission_denied');
    expect(await d.codeOf('group_stop', { group_id: gid, by: 'p1' })).toBe('permission_denied');
    expect(await d.codeOf('group_start', {})).toBe('missing_group_id');
    expect(d.snapshot(gid)).toEqual(before);

    const started = await d.call('group_start', { group_id: gid, by: 'lead' });
    expect(started).toMatchObject({ group_id: gid, started: ['lead'] });
    expect(started.event).toMatchObject({ kind: 'group.start', by: 'lead', data: { started: ['lead'] } });
    let { group } = await d.call('group_show', { group_id: gid });
    expect(group).toMatchObject({ running: true, state: 'active' });

    const stopped = await d.call('group_stop', { group_id: gid });
    expect(stopped).toMatchObject({ group_id: gid, stopped: ['lead'] });
    expect(stopped.event).toMatchObject({ kind: 'group.stop', data: { stopped: ['lead'] } });
    ({ group } = await d.call('group_show', { group_id: gid }));
    expect(group.running).toBe(false);
    expect(group.actors?.map((a) => [a.id, a.enabled])).toEqual([
      ['lead', true],
      ['p1', false],
    ]);
  });

  it('actor_start / actor_stop / actor_restart: permissions, enabled flag and events', async () => {
    const gid = await groupWithTeam(d);
    // Actors really run now: an explicit start or restart needs a scope to run in.
    await d.call('attach', { path: d.projectDir('lifecycle'), group_id: gid });
    await d.call('actor_add', { group_id: gid, actor_id: 'p2', command: ['cat'] });
    const before = d.snapshot(gid);
    expect(await d.codeOf('actor_start', { group_id: gid, actor_id: 'p1', by: 'p1' })).toBe('permission_denied');
    expect(await d.codeOf('actor_stop', { group_id: gid, actor_id: 'p2', by: 'p1' })).toBe('permission_denied');
    expect(await d.codeOf('actor_restart', { group_id: gid, actor_id: 'p2', by: 'outsider' })).toBe('permission_denied');
    expect(await d.codeOf('actor_start', { group_id: gid, actor_id: 'ghost' })).toBe('actor_not_found');
    expect(await d.codeOf('actor_restart', { group_id: gid, actor_id: 'ghost' })).toBe('actor_not_found');
    expect(await d.codeOf('actor_stop', { group_id: gid })).toBe('missing_actor_id');
    expect(d.snapshot(gid)).toEqual(before);

    const selfStop = await d.call('actor_stop', { group_id: gid, actor_id: 'p1', by: 'p1' });
    expect(selfStop.actor).toMatchObject({ id: 'p1', enabled: false });
    expect(selfStop.event).toMatchObject({ kind: 'actor.stop', by: 'p1', data: { actor_id: 'p1' } });

    const restart = await d.call('actor_restart', { group_id: gid, actor_id: 'p2', by: 'p1' });
    expect(restart.actor).toMatchObject({ id: 'p2', enabled: true });
    expect(restart.event).toMatchObject({ kind: 'actor.restart', by: 'p1', data: { actor_id: 'p2' } });

    const start = await d.call('actor_start', { group_id: gid, actor_id: 'p1', by: 'lead' });
    expect(start.actor).toMatchObject({ id: 'p1', enabled: true });
    expect(start.event).toMatchObject({ kind: 'actor.start', by: 'lead', data: { actor_id: 'p1' } });

    const foremanStop = await d.call('actor_stop', { group_id: gid, actor_id: 'p2', by: 'lead' });
    expect(foremanStop.actor.enabled).toBe(false);
    // actor.activity (derived working state) may interleave at any tick: only lifecycle kinds here.
    const kinds = d.ledgerEvents(gid).map((e) => e.kind).filter((k) => k !== 'actor.activity').slice(-4);
    expect(kinds).toEqual(['actor.stop', 'actor.restart', 'actor.start', 'actor.stop']);
  });
});
