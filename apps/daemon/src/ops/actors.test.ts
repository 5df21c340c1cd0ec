import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupWithTeam, DaemonFixture } from '../../test-support/daemon-fixture.js';

const SECRET = 'sk-actor-PRIVATE-value-9f31';

describe('actor ops over the socket', () => {
  let d: DaemonFixture;
  beforeAll(async () => {
    d = await DaemonFixture.start();
  });
  afterAll(async () => {
    await d?.[Symbol.asyncDispose]();
  });

  it('actor_add: first actor is foreman; actor.add carries the full doc; command argv kept; auto ids', async () => {
    const { group_id } = await d.call('group_create', { title: 'actors' });
    const first = await d.call('actor_add', { group_id, actor_id: 'lead', title: 'Lead', command: ['claude', '--x', 'a b', ''] });
    expect(first.actor).toMatchObject({ id: 'lead', title: 'Lead', command: ['claude', '--x', 'a b', ''], enabled: true });
    expect(first.running).toBe(false);
    expect(first.event).toMatchObject({ kind: 'actor.add', by: 'user', data: { actor: { id: 'lead', command: ['claude', '--x', 'a b', ''] } } });
    const auto = await d.call('actor_add', { group_id, runtime: 'codex', actor_id: '' });
    expect(auto.actor.id).toBe('codex-1');
    const { actors } = await d.call('actor_list', { group_id });
    expect(actors.map((a) => [a.id, a.role, a.running])).toEqual([
      ['lead', 'foreman', false],
      ['codex-1', 'peer', false],
    ]);
    const lastAdd = d.ledgerEvents(group_id).filter((e) => e.kind === 'actor.add').at(-1)!;
    expect(lastAdd.data.actor).toEqual(JSON.parse(JSON.stringify(auto.actor)));
  });

  it('actor_add rejections append nothing and change no file', async () => {
    const gid = await groupWithTeam(d);
    const before = d.snapshot(gid);
    expect(await d.codeOf('actor_add', { group_id: gid, actor_id: 'x1', by: 'p1' })).toBe('permission_denied');
    expect(await d.codeOf('actor_add', { group_id: gid, actor_id: 'x2', by: 'lead', command: ['other'] })).toBe('permission_denied');
    expect(await d.codeOf('actor_add', { group_id: gid, actor_id: 'x3', by: 'p1', env_private: { K: SECRET } })).toBe('permission_denied');
    expect(await d.codeOf('actor_add', { group_id: gid, actor_id: 'lead' })).toBe('actor_exists');
    expect(await d.codeOf('actor_add', { group_id: gid, actor_id: 'user' })).toBe('invalid_actor_id');
    expect(await d.codeOf('actor_add', { group_id: gid, actor_id: 'has space' })).toBe('invalid_actor_id');
    expect(await d.codeOf('actor_add', { group_id: gid, actor_id: 'x4', command: 'a shell string' })).toBe('invalid_request');
    expect(await d.codeOf('actor_add', { group_id: gid, actor_id: 'x5', profile_id: 'nope', env_private: {} })).toBe('invalid_request');
    expect(await d.codeOf('actor_add', { group_id: 'g_000000000000', actor_id: 'x6' })).toBe('group_not_found');
    expect(d.snapshot(gid)).toEqual(before);
  });

  it('the foreman may add a strict clone of itself', async () => {
    const gid = await groupWithTeam(d);
    const clone = await d.call('actor_add', { group_id: gid, actor_id: 'lead2', by: 'lead', runtime: 'custom', command: ['cat'] });
    expect(clone.event).toMatchObject({ kind: 'actor.add', by: 'lead' });
  });

  it('env_private: user only, keys only, never in results, events, group.yaml or the log', async () => {
    const { group_id } = await d.call('group_create', { title: 'secrets' });
    const added = await d.call('actor_add', { group_id, actor_id: 'sec', env_private: { API_KEY: SECRET } });
    expect(JSON.stringify(added)).not.toContain(SECRET);
    expect(JSON.stringify(added)).not.toContain('env_private');
    expect(await d.call('actor_env_private_keys', { group_id, actor_id: 'sec' })).toEqual({ group_id, actor_id: 'sec', keys: ['API_KEY'] });
    const updated = await d.call('actor_env_private_update', { group_id, actor_id: 'sec', set: { OTHER: `${SECRET}-2` }, unset: ['API_KEY'] });
    expect(updated.keys).toEqual(['OTHER']);
    expect(await d.codeOf('actor_env_private_keys', { group_id, actor_id: 'sec', by: 'sec' })).toBe('permission_denied');
    expect(await d.codeOf('actor_env_private_update', { group_id, actor_id: 'sec', by: 'sec', clear: true })).toBe('permission_denied');
    expect(await d.codeOf('actor_env_private_keys', { group_id, actor_id: 'ghost' })).toBe('actor_not_found');
    expect(await d.codeOf('actor_env_private_keys', { group_id })).toBe('missing_actor_id');
    expect(await d.codeOf('actor_env_private_update', { group_id, actor_id: 'sec', set: { 'BAD KEY': 'v' } })).toBe('invalid_env_key');
    const file = join(d.home, 'state', 'secrets', 'actors', group_id, 'sec.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ OTHER: `${SECRET}-2` });
    expect(d.publicText()).not.toContain(SECRET);
    // clear drops every old key first; a set in the same request then applies.
    const replaced = await d.call('actor_env_private_update', { group_id, actor_id: 'sec', clear: true, set: { X: 'y' } });
    expect(replaced.keys).toEqual(['X']);
    expect((await d.call('actor_env_private_update', { group_id, actor_id: 'sec', clear: true })).keys).toEqual([]);
  });

  it('actor_update: user only; patch recorded; profile-owned and unknown fields refused', async () => {
    const gid = await groupWithTeam(d);
    const r = await d.call('actor_update', { group_id: gid, actor_id: 'p1', patch: { title: 'Peer One', command: ['cat', 'a b'] } });
    expect(r.actor).toMatchObject({ id: 'p1', title: 'Peer One', command: ['cat', 'a b'] });
    expect(r.event).toMatchObject({ kind: 'actor.update', data: { actor_id: 'p1', patch: { title: 'Peer One', command: ['cat', 'a b'] } } });
    const before = d.snapshot(gid);
    expect(await d.codeOf('actor_update', { group_id: gid, actor_id: 'p1', by: 'lead', patch: { title: 'x' } })).toBe('permission_denied');
    expect(await d.codeOf('actor_update', { group_id: gid, actor_id: 'p1', by: 'p1', patch: { title: 'x' } })).toBe('permission_denied');
    expect(await d.codeOf('actor_update', { group_id: gid, actor_id: 'ghost', patch: { title: 'x' } })).toBe('actor_not_found');
    expect(await d.codeOf('actor_update', { group_id: gid, actor_id: 'p1', patch: { id: 'renamed' } })).toBe('invalid_patch');
    expect(await d.codeOf('actor_update', { group_id: gid, actor_id: 'p1', patch: {} })).toBe('invalid_patch');
    expect(await d.codeOf('actor_update', { group_id: gid, actor_id: 'p1', patch: { command: 'cat -n' } })).toBe('invalid_request');
    expect(await d.codeOf('actor_update', { group_id: gid, actor_id: 'p1', patch: { title: 'x' }, profile_id: 'prof' })).toBe('invalid_request');
    expect(await d.codeOf('actor_update', { group_id: gid, patch: { title: 'x' } })).toBe('missing_actor_id');
    expect(d.snapshot(gid)).toEqual(before);
  });

  it('actor_remove: peer may remove itself, not others; foreman may remove peers; event appended', async () => {
    const gid = await groupWithTeam(d);
    await d.call('actor_add', { group_id: gid, actor_id: 'p2', command: ['cat'] });
    const before = d.snapshot(gid);
    expect(await d.codeOf('actor_remove', { group_id: gid, actor_id: 'p2', by: 'p1' })).toBe('permission_denied');
    expect(await d.codeOf('actor_remove', { group_id: gid, actor_id: 'lead', by: 'p1' })).toBe('permission_denied');
    expect(await d.codeOf('actor_remove', { group_id: gid, actor_id: 'ghost' })).toBe('actor_not_found');
    expect(d.snapshot(gid)).toEqual(before);
    const self = await d.call('actor_remove', { group_id: gid, actor_id: 'p2', by: 'p2' });
    expect(self).toMatchObject({ actor_id: 'p2', event: { kind: 'actor.remove', by: 'p2', data: { actor_id: 'p2' } } });
    await d.call('actor_remove', { group_id: gid, actor_id: 'p1', by: 'lead' });
    const { actors } = await d.call('actor_list', { group_id: gid });
    expect(actors.map((a) => a.id)).toEqual(['lead']);
  });

  it('actor_list include_unread counts messages addressed to the actor', async () => {
    const gid = await groupWithTeam(d);
    const { actors } = await d.call('actor_list', { group_id: gid, include_unread: true });
    expect(actors.map((a) => a.unread_count)).toEqual([0, 0]);
    expect(await d.codeOf('actor_list', { group_id: 'g_000000000000' })).toBe('group_not_found');
  });

  it('concurrent writes to one group: every add lands once, events in group.yaml order', async () => {
    const { group_id } = await d.call('group_create', { title: 'race' });
    const results = await Promise.all(Array.from({ length: 12 }, () => d.call('actor_add', { group_id, runtime: 'codex' })));
    const ids = results.map((r) => r.actor.id);
    expect(new Set(ids).size).toBe(12);
    const { actors } = await d.call('actor_list', { group_id });
    const addEvents = d.ledgerEvents(group_id).filter((e) => e.kind === 'actor.add');
    expect(addEvents.map((e) => (e.data.actor as { id: string }).id)).toEqual(actors.map((a) => a.id));
  });
});
