import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { addActor } from './actor-store.js';
import { loadGroup } from './group-store.js';
import { createGroup } from './groups.js';
import { actorPrivateEnvKeys, readActorPrivateEnvForLaunch, updateActorPrivateEnv } from './private-env.js';
import {
  copyProfileSecretsFromActor,
  copyProfileSecretsFromProfile,
  deleteProfile,
  getProfile,
  listProfiles,
  profileSecretKeys,
  updateProfileSecrets,
  upsertProfile,
} from './profiles.js';
import { readSecretMap } from './secrets-store.js';
import { makeTempHome } from './testing.js';

const SECRET = 'anthropic-secret-0123456789';

describe('actor profiles', () => {
  it('upsert normalises the command, migrates legacy env into secrets, and bumps revisions', async () => {
    using home = makeTempHome();
    const { profile } = await upsertProfile(home.layout, 'user', { name: 'Claude', runtime: 'claude', command: 'claude --model "opus 4"', env: { ANTHROPIC_API_KEY: SECRET } });
    expect(profile).toMatchObject({ name: 'Claude', runtime: 'claude', command: ['claude', '--model', 'opus 4'], env: {}, revision: 1 });
    expect(JSON.stringify(profile)).not.toContain(SECRET);
    const id = profile.id as string;
    expect(readFileSync(home.layout.profilePath(id), 'utf8')).not.toContain(SECRET);
    expect(statSync(home.layout.profileSecretsPath(id)).mode & 0o777).toBe(0o600);
    expect(profileSecretKeys(home.layout, 'user', id)).toEqual({ profile_id: id, keys: ['ANTHROPIC_API_KEY'], masked_values: { ANTHROPIC_API_KEY: 'an******89' } });

    const second = await upsertProfile(home.layout, 'user', { id, name: 'Claude 2', runtime: 'claude' }, 1);
    expect(second.profile).toMatchObject({ revision: 2, command: ['claude', '--model', 'opus 4'] });
    await expect(upsertProfile(home.layout, 'user', { id, name: 'stale', runtime: 'claude' }, 1)).rejects.toMatchObject({ code: 'profile_revision_conflict' });
    await expect(upsertProfile(home.layout, 'user', { name: '', runtime: 'x' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(upsertProfile(home.layout, 'user', { id: '../evil', name: 'n', runtime: 'x' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(upsertProfile(home.layout, 'lead', { name: 'n', runtime: 'x' })).rejects.toMatchObject({ code: 'permission_denied' });

    const clamped = await upsertProfile(home.layout, 'user', { name: 'c', runtime: 'x', capability_defaults: { session_ttl_seconds: 5 } });
    expect(clamped.profile.capability_defaults).toEqual({ session_ttl_seconds: 60 });
  });

  it('reads accept a legacy string command and never include secrets', async () => {
    using home = makeTempHome();
    const { profile } = await upsertProfile(home.layout, 'user', { name: 'p', runtime: 'codex' });
    const id = profile.id as string;
    const raw = JSON.parse(readFileSync(home.layout.profilePath(id), 'utf8'));
    writeFileSync(home.layout.profilePath(id), JSON.stringify({ ...raw, command: "codex --config 'a b'", future: 1 }));
    await updateProfileSecrets(home.layout, 'user', id, { set: { TOKEN: SECRET } });
    const got = getProfile(home.layout, 'peer-x', id);
    expect(got.profile).toMatchObject({ command: ['codex', '--config', 'a b'], future: 1 });
    const listed = listProfiles(home.layout, 'user');
    expect(listed.profiles).toEqual([expect.objectContaining({ id, usage_count: 0 })]);
    expect(JSON.stringify([got, listed])).not.toContain(SECRET);
    expect(() => getProfile(home.layout, 'user', 'ap_missing')).toThrowError(expect.objectContaining({ code: 'profile_not_found' }));
  });

  it('secret ops are user only', async () => {
    using home = makeTempHome();
    const { profile } = await upsertProfile(home.layout, 'user', { name: 'p', runtime: 'codex' });
    const id = profile.id as string;
    expect(() => profileSecretKeys(home.layout, 'lead', id)).toThrowError(expect.objectContaining({ code: 'permission_denied' }));
    await expect(updateProfileSecrets(home.layout, 'lead', id, { set: { A: '1' } })).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(copyProfileSecretsFromProfile(home.layout, 'lead', id, id)).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(deleteProfile(home.layout, 'lead', id)).rejects.toMatchObject({ code: 'permission_denied' });
  });

  it('linked actors, usage, copy-from-actor/profile, delete with profile_in_use and force_detach', async () => {
    using home = makeTempHome();
    const { group_id: gid, title } = await createGroup(home.layout, { title: 'G' });
    const { profile } = await upsertProfile(home.layout, 'user', { name: 'p', runtime: 'codex', command: ['codex', '--x'], submit: 'newline' });
    const pid = profile.id as string;
    await updateProfileSecrets(home.layout, 'user', pid, { set: { P_KEY: SECRET } });
    const { actor } = await addActor(home.layout, 'user', gid, { actor_id: 'linked', profile_id: pid, runtime: 'ignored' });
    expect(actor).toMatchObject({ profile_id: pid, runtime: 'codex', command: ['codex', '--x'], submit: 'newline', profile_revision_applied: 1 });
    await expect(addActor(home.layout, 'user', gid, { actor_id: 'x', profile_id: pid, env_private: {} })).rejects.toMatchObject({ code: 'invalid_request' });
    await addActor(home.layout, 'user', gid, { actor_id: 'custom', runtime: 'claude', env_private: { C_KEY: 'c-secret' } });
    expect(getProfile(home.layout, 'user', pid).usage).toEqual([{ group_id: gid, group_title: title, actor_id: 'linked', actor_title: '' }]);

    const { profile: other } = await upsertProfile(home.layout, 'user', { name: 'o', runtime: 'claude' });
    const oid = other.id as string;
    expect((await copyProfileSecretsFromActor(home.layout, 'user', oid, gid, 'custom')).keys).toEqual(['C_KEY']);
    expect((await copyProfileSecretsFromActor(home.layout, 'user', oid, gid, 'linked')).keys).toEqual(['P_KEY']);
    await updateProfileSecrets(home.layout, 'user', oid, { clear: true });
    const copied = await copyProfileSecretsFromProfile(home.layout, 'user', oid, pid);
    expect(copied).toEqual({ profile_id: oid, source_profile_id: pid, keys: ['P_KEY'] });
    expect(readSecretMap(home.layout.profileSecretsPath(oid))).toEqual({ P_KEY: SECRET });

    await expect(deleteProfile(home.layout, 'user', pid)).rejects.toMatchObject({ code: 'profile_in_use' });
    await updateActorPrivateEnv(home.layout, 'user', gid, 'linked', { set: { DORMANT: 'old' } });
    const deleted = await deleteProfile(home.layout, 'user', pid, { forceDetach: true });
    expect(deleted).toEqual({ deleted: true, profile_id: pid, detached_count: 1, detached: [{ group_id: gid, actor_id: 'linked' }] });
    const converted = loadGroup(home.layout, gid).actors.find((a) => a.id === 'linked')!;
    expect(converted).toMatchObject({ profile_id: '', runtime: 'codex', command: ['codex', '--x'], submit: 'newline' });
    // Conversion replaces dormant custom secrets with the profile's.
    expect(actorPrivateEnvKeys(home.layout, 'user', gid, 'linked').keys).toEqual(['P_KEY']);
    expect(readActorPrivateEnvForLaunch(home.layout, gid, 'linked')).toEqual({ P_KEY: SECRET });
    expect(() => getProfile(home.layout, 'user', pid)).toThrowError(expect.objectContaining({ code: 'profile_not_found' }));
  });
});
