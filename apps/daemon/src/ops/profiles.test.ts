import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupWithTeam, DaemonFixture } from '../../test-support/daemon-fixture.js';

const PROFILE_SECRET = 'sk-profile-SECRET-4a7e90';
const LEGACY_SECRET = 'legacy-env-SECRET-77c1';
const ACTOR_SECRET = 'actor-private-SECRET-b2d4';

describe('actor profile ops over the socket', () => {
  let d: DaemonFixture;
  beforeAll(async () => {
    d = await DaemonFixture.start();
  });
  afterAll(async () => {
    await d?.[Symbol.asyncDispose]();
  });

  it('upsert (user only, optimistic revision), get, list with usage, delete with force_detach', async () => {
    expect(await d.codeOf('actor_profile_upsert', { by: 'lead', profile: { id: 'nope', name: 'n', runtime: 'claude' } })).toBe(
      'permission_denied',
    );
    const { profile } = await d.call('actor_profile_upsert', {
      profile: { id: 'claude-std', name: 'Claude', runtime: 'claude', command: 'claude --model "big one"', env: { LEGACY: LEGACY_SECRET } },
    });
    expect(profile).toMatchObject({ id: 'claude-std', name: 'Claude', command: ['claude', '--model', 'big one'], env: {} });
    expect(JSON.stringify(profile)).not.toContain(LEGACY_SECRET);
    const revision = profile.revision as number;
    expect(
      await d.codeOf('actor_profile_upsert', { profile: { id: 'claude-std', name: 'C2', runtime: 'claude' }, expected_revision: revision + 5 }),
    ).toBe('profile_revision_conflict');
    await d.call('actor_profile_upsert', { profile: { id: 'claude-std', name: 'Claude 2', runtime: 'claude', command: ['claude'] }, expected_revision: revision });

    const gid = await groupWithTeam(d);
    const linked = await d.call('actor_add', { group_id: gid, actor_id: 'linked', profile_id: 'claude-std' });
    expect(linked.actor).toMatchObject({ profile_id: 'claude-std', runtime: 'claude', command: ['claude'] });

    const list = await d.call('actor_profile_list', { by: 'p1' });
    expect(list.profiles.find((p) => p.id === 'claude-std')).toMatchObject({ usage_count: 1, name: 'Claude 2' });
    const got = await d.call('actor_profile_get', { profile_id: 'claude-std', by: 'lead' });
    expect(got.usage).toEqual([{ group_id: gid, group_title: 'team', actor_id: 'linked', actor_title: '' }]);
    expect(await d.codeOf('actor_profile_get', { profile_id: 'ghost' })).toBe('profile_not_found');
    expect(await d.codeOf('actor_profile_get', {})).toBe('invalid_request');

    expect(await d.codeOf('actor_update', { group_id: gid, actor_id: 'linked', patch: { command: ['x'] } })).toBe('profile_linked');
    expect(await d.codeOf('actor_profile_delete', { profile_id: 'claude-std' })).toBe('profile_in_use');
    expect(await d.codeOf('actor_profile_delete', { profile_id: 'claude-std', by: 'lead', force_detach: true })).toBe('permission_denied');
    const deleted = await d.call('actor_profile_delete', { profile_id: 'claude-std', force_detach: true });
    expect(deleted).toEqual({ deleted: true, profile_id: 'claude-std', detached_count: 1, detached: [{ group_id: gid, actor_id: 'linked' }] });
    const { actors } = await d.call('actor_list', { group_id: gid });
    expect(actors.find((a) => a.id === 'linked')).toMatchObject({ profile_id: '', command: ['claude'] });
    expect(d.publicText()).not.toContain(LEGACY_SECRET);
  });

  it('secrets: user only, keys and masked previews only, copy from actor and from profile', async () => {
    await d.call('actor_profile_upsert', { profile: { id: 'p-a', name: 'A', runtime: 'codex' } });
    await d.call('actor_profile_upsert', { profile: { id: 'p-b', name: 'B', runtime: 'codex' } });
    for (const op of ['actor_profile_secret_keys', 'actor_profile_secret_update'] as const) {
      expect(await d.codeOf(op, { profile_id: 'p-a', by: 'someone', set: { K: 'v' } })).toBe('permission_denied');
    }
    const updated = await d.call('actor_profile_secret_update', { profile_id: 'p-a', set: { OPENAI_API_KEY: PROFILE_SECRET } });
    expect(updated).toEqual({ profile_id: 'p-a', keys: ['OPENAI_API_KEY'] });
    const keys = await d.call('actor_profile_secret_keys', { profile_id: 'p-a' });
    expect(keys.keys).toEqual(['OPENAI_API_KEY']);
    expect(keys.masked_values.OPENAI_API_KEY).not.toBe(PROFILE_SECRET);
    expect(JSON.stringify(keys)).not.toContain(PROFILE_SECRET);
    expect(await d.codeOf('actor_profile_secret_update', { profile_id: 'ghost', set: { K: 'v' } })).toBe('profile_not_found');

    const fromProfile = await d.call('actor_profile_secret_copy_from_profile', { profile_id: 'p-b', source_profile_id: 'p-a' });
    expect(fromProfile).toEqual({ profile_id: 'p-b', source_profile_id: 'p-a', keys: ['OPENAI_API_KEY'] });

    const gid = await groupWithTeam(d);
    await d.call('actor_env_private_update', { group_id: gid, actor_id: 'p1', set: { ACTOR_TOKEN: ACTOR_SECRET } });
    expect(await d.codeOf('actor_profile_secret_copy_from_actor', { profile_id: 'p-b', group_id: gid, actor_id: 'p1', by: 'p1' })).toBe(
      'permission_denied',
    );
    expect(await d.codeOf('actor_profile_secret_copy_from_actor', { profile_id: 'p-b', actor_id: 'p1' })).toBe('missing_group_id');
    expect(await d.codeOf('actor_profile_secret_copy_from_actor', { profile_id: 'p-b', group_id: gid, actor_id: 'ghost' })).toBe(
      'actor_not_found',
    );
    const fromActor = await d.call('actor_profile_secret_copy_from_actor', { profile_id: 'p-b', group_id: gid, actor_id: 'p1' });
    expect(fromActor).toEqual({ profile_id: 'p-b', group_id: gid, actor_id: 'p1', keys: ['ACTOR_TOKEN'] });

    // actor_update profile_action convert_to_custom snapshots the profile and its secrets, then unlinks.
    const linked = await d.call('actor_add', { group_id: gid, actor_id: 'lnk', profile_id: 'p-a' });
    expect(linked.actor.profile_id).toBe('p-a');
    const converted = await d.call('actor_update', { group_id: gid, actor_id: 'lnk', patch: {}, profile_action: 'convert_to_custom' });
    expect(converted.actor).toMatchObject({ id: 'lnk', profile_id: '', runtime: 'codex' });
    expect(converted.event).toMatchObject({ kind: 'actor.update', data: { actor_id: 'lnk', patch: {}, profile_action: 'convert_to_custom' } });
    expect((await d.call('actor_env_private_keys', { group_id: gid, actor_id: 'lnk' })).keys).toEqual(['OPENAI_API_KEY']);
    expect(await d.codeOf('actor_update', { group_id: gid, actor_id: 'p1', by: 'lead', patch: {}, profile_action: 'convert_to_custom' })).toBe(
      'permission_denied',
    );

    const text = d.publicText();
    for (const secret of [PROFILE_SECRET, ACTOR_SECRET]) expect(text).not.toContain(secret);
  });
});
