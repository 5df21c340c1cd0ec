import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addActor } from './actor-store.js';
import { createGroup } from './groups.js';
import { actorPrivateEnvKeys, readActorPrivateEnvForLaunch, updateActorPrivateEnv } from './private-env.js';
import { applySecretUpdate, maskSecret, type SecretMapUpdate } from './secrets-store.js';
import { makeTempHome, type TempHome } from './testing.js';

const SECRET = 'sk-super-secret-value-42';

function allFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

async function setup(home: TempHome) {
  const { group_id: gid } = await createGroup(home.layout);
  await addActor(home.layout, 'user', gid, { actor_id: 'lead', runtime: 'codex' });
  await addActor(home.layout, 'user', gid, { actor_id: 'peer1', runtime: 'codex' });
  return gid;
}

describe('actor private env', () => {
  it('set / unset / clear return keys only; values stay on disk with 0600 files and 0700 dirs', async () => {
    using home = makeTempHome();
    const gid = await setup(home);
    const set = await updateActorPrivateEnv(home.layout, 'user', gid, 'peer1', { set: { OPENAI_API_KEY: SECRET, B_KEY: 'short' } });
    expect(set).toEqual({ group_id: gid, actor_id: 'peer1', keys: ['B_KEY', 'OPENAI_API_KEY'] });
    expect(JSON.stringify(set)).not.toContain(SECRET);
    const path = home.layout.actorSecretsPath(gid, 'peer1');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    for (const dir of [home.layout.secretsDir, join(home.layout.secretsDir, 'actors'), join(home.layout.secretsDir, 'actors', gid)]) {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    }
    expect(readActorPrivateEnvForLaunch(home.layout, gid, 'peer1')).toEqual({ OPENAI_API_KEY: SECRET, B_KEY: 'short' });
    expect((await updateActorPrivateEnv(home.layout, 'user', gid, 'peer1', { unset: ['B_KEY'] })).keys).toEqual(['OPENAI_API_KEY']);
    expect((await updateActorPrivateEnv(home.layout, 'user', gid, 'peer1', { clear: true, set: { C: '1' } })).keys).toEqual(['C']);
    expect((await updateActorPrivateEnv(home.layout, 'user', gid, 'peer1', { clear: true })).keys).toEqual([]);
    expect(actorPrivateEnvKeys(home.layout, 'user', gid, 'peer1').keys).toEqual([]);
  });

  it('only user may touch private env, even the foreman about itself', async () => {
    using home = makeTempHome();
    const gid = await setup(home);
    for (const by of ['lead', 'peer1', 'stranger']) {
      expect(() => actorPrivateEnvKeys(home.layout, by, gid, 'peer1')).toThrowError(expect.objectContaining({ code: 'permission_denied' }));
      await expect(updateActorPrivateEnv(home.layout, by, gid, by, { set: { A: '1' } })).rejects.toMatchObject({ code: 'permission_denied' });
    }
    expect(() => actorPrivateEnvKeys(home.layout, 'user', gid, 'ghost')).toThrowError(expect.objectContaining({ code: 'actor_not_found' }));
    expect(() => actorPrivateEnvKeys(home.layout, 'user', 'g_ffffffffffff', 'peer1')).toThrowError(expect.objectContaining({ code: 'group_not_found' }));
  });

  it.each<SecretMapUpdate>([{ set: { '1BAD': 'x' } }, { set: { 'A B': 'x' } }, { set: { 'A=B': 'x' } }, { set: { '': 'x' } }, { unset: ['no-dash'] }])(
    'rejects bad key names %j with invalid_env_key and writes nothing',
    async (update) => {
      using home = makeTempHome();
      const gid = await setup(home);
      await expect(updateActorPrivateEnv(home.layout, 'user', gid, 'peer1', update)).rejects.toMatchObject({ code: 'invalid_env_key' });
      expect(actorPrivateEnvKeys(home.layout, 'user', gid, 'peer1').keys).toEqual([]);
    },
  );

  it('rejects non-string values without echoing them', async () => {
    using home = makeTempHome();
    const gid = await setup(home);
    const err = await updateActorPrivateEnv(home.layout, 'user', gid, 'peer1', { set: { A: 42 as unknown as string } }).catch((e) => e);
    expect(err.code).toBe('invalid_request');
    expect(JSON.stringify({ m: err.message, d: err.details })).not.toContain('42');
  });

  it('secret values appear in no file outside state/secrets', async () => {
    using home = makeTempHome();
    const gid = await setup(home);
    await updateActorPrivateEnv(home.layout, 'user', gid, 'peer1', { set: { K: SECRET } });
    const leaks = allFilesUnder(home.home).filter((f) => !f.startsWith(home.layout.secretsDir) && readFileSync(f, 'utf8').includes(SECRET));
    expect(leaks).toEqual([]);
  });

  it('pure helpers', () => {
    expect(applySecretUpdate({ A: '1', B: '2' }, { unset: ['A'], set: { C: '3' } })).toEqual({ B: '2', C: '3' });
    expect(applySecretUpdate({ A: '1' }, { clear: true })).toEqual({});
    expect(maskSecret('supersecret')).toBe('su******et');
    expect(maskSecret('secret')).toBe('******');
  });
});
