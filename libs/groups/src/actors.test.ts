import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { addActor, listActors, removeActor, setActorEnabled, updateActor } from './actor-store.js';
import { applyActorPatch, buildActor, effectiveRole } from './actors.js';
import { loadGroup } from './group-store.js';
import { createGroup } from './groups.js';
import { actorPrivateEnvKeys, updateActorPrivateEnv } from './private-env.js';
import { makeTempHome } from './testing.js';

const now = '2026-01-01T00:00:00.000000Z';

describe('actor documents (pure)', () => {
  it('builds the reference document shape with defaults', () => {
    const actor = buildActor({ actor_id: 'peer1', title: ' P ', runtime: 'claude', command: ['claude', 'a b', ''] }, [], now);
    expect(actor).toEqual({
      v: 1,
      id: 'peer1',
      title: 'P',
      command: ['claude', 'a b', ''],
      env: {},
      default_scope_key: '',
      submit: 'enter',
      capability_autoload: [],
      capability_hidden: [],
      enabled: true,
      runner: 'pty',
      runtime: 'claude',
      runtime_state_source: 'terminal',
      avatar_asset_path: '',
      profile_id: '',
      profile_scope: 'global',
      profile_owner: '',
      profile_revision_applied: 0,
      created_at: now,
      updated_at: now,
    });
  });

  it.each([
    [{ actor_id: 'user' }, 'invalid_actor_id'],
    [{ actor_id: 'a.b' }, 'invalid_actor_id'],
    [{ actor_id: 'x', submit: 'tab' }, 'invalid_request'],
    [{ actor_id: 'x', runner: 'docker' }, 'invalid_request'],
    [{ actor_id: 'x', env: { 'BAD-KEY': 'v' } }, 'invalid_env_key'],
    [{ actor_id: 'x', command: 'a "b' }, 'invalid_command'],
    [{ actor_id: 'Lead' }, 'actor_exists'],
  ])('%j → %s', (input, code) => {
    const existing = [buildActor({ actor_id: 'lead' }, [], now)];
    expect(() => buildActor(input as never, existing, now)).toThrowError(expect.objectContaining({ code }));
  });

  it('roles: first visible actor is foreman, internal actors have none', () => {
    const voice = buildActor({ actor_id: 'voice', internal_kind: 'voice_secretary' }, [], now);
    const a = buildActor({ actor_id: 'a' }, [voice], now);
    const b = buildActor({ actor_id: 'b' }, [voice, a], now);
    const actors = [voice, a, b];
    expect(effectiveRole(actors, 'voice')).toBeUndefined();
    expect(effectiveRole(actors, 'a')).toBe('foreman');
    expect(effectiveRole(actors, 'b')).toBe('peer');
    expect(effectiveRole(actors, 'nobody')).toBeUndefined();
  });

  it('patches validate each field and refuse profile-owned fields on linked actors', () => {
    const actor = buildActor({ actor_id: 'a', runtime: 'codex' }, [], now);
    const { actor: next, patch } = applyActorPatch(actor, { command: 'codex --yolo "x y"', enabled: false, submit: 'none', title: 'T' }, '2026-02-01T00:00:00.000000Z');
    expect(next).toMatchObject({ command: ['codex', '--yolo', 'x y'], enabled: false, submit: 'none', title: 'T', updated_at: '2026-02-01T00:00:00.000000Z' });
    expect(patch.command).toEqual(['codex', '--yolo', 'x y']);
    expect(() => applyActorPatch(actor, { id: 'b' }, now)).toThrowError(expect.objectContaining({ code: 'invalid_patch' }));
    expect(() => applyActorPatch(actor, { enabled: 'yes' }, now)).toThrowError(expect.objectContaining({ code: 'invalid_patch' }));
    const linked = { ...actor, profile_id: 'ap_1' };
    expect(() => applyActorPatch(linked, { command: ['x'] }, now)).toThrowError(expect.objectContaining({ code: 'profile_linked' }));
    expect(applyActorPatch(linked, { title: 'ok' }, now).actor.title).toBe('ok');
  });
});

describe('actor store', () => {
  it('add / list / update / remove with roles and permissions', async () => {
    using home = makeTempHome();
    const { group_id: gid } = await createGroup(home.layout);
    const { actor: lead } = await addActor(home.layout, 'user', gid, { actor_id: 'lead', runtime: 'codex', command: ['codex'] });
    await addActor(home.layout, 'user', gid, { runtime: 'claude' });
    expect(listActors(home.layout, gid).map((a) => [a.id, a.role])).toEqual([
      ['lead', 'foreman'],
      ['claude-1', 'peer'],
    ]);
    await expect(addActor(home.layout, 'user', gid, { actor_id: 'lead' })).rejects.toMatchObject({ code: 'actor_exists' });
    await expect(addActor(home.layout, 'claude-1', gid, { actor_id: 'x' })).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(addActor(home.layout, 'lead', gid, { actor_id: 'x', runtime: 'claude' })).rejects.toMatchObject({ code: 'permission_denied' });
    const clone = await addActor(home.layout, 'lead', gid, { actor_id: 'lead2', runtime: lead.runtime, command: lead.command });
    expect(clone.actor.id).toBe('lead2');

    await expect(updateActor(home.layout, 'lead', gid, 'claude-1', { title: 'x' })).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(updateActor(home.layout, 'user', gid, 'ghost', { title: 'x' })).rejects.toMatchObject({ code: 'actor_not_found' });
    const upd = await updateActor(home.layout, 'user', gid, 'claude-1', { title: 'Claude', enabled: false });
    expect(upd.patch).toEqual({ title: 'Claude', enabled: false });

    expect((await setActorEnabled(home.layout, 'lead', gid, 'claude-1', true)).enabled).toBe(true);
    await expect(setActorEnabled(home.layout, 'claude-1', gid, 'claude-1', true)).rejects.toMatchObject({ code: 'permission_denied' });
    expect((await setActorEnabled(home.layout, 'claude-1', gid, 'claude-1', false)).enabled).toBe(false);

    await expect(removeActor(home.layout, 'claude-1', gid, 'lead')).rejects.toMatchObject({ code: 'permission_denied' });
    await removeActor(home.layout, 'lead', gid, 'claude-1');
    await expect(removeActor(home.layout, 'user', gid, 'claude-1')).rejects.toMatchObject({ code: 'actor_not_found' });
    expect(loadGroup(home.layout, gid).actors.map((a) => a.id)).toEqual(['lead', 'lead2']);
  });

  it('env_private on add is user-only, authoritative and written 0600; a foreman clone inherits secrets; remove deletes them', async () => {
    using home = makeTempHome();
    const { group_id: gid } = await createGroup(home.layout);
    await addActor(home.layout, 'user', gid, { actor_id: 'lead', runtime: 'codex', env_private: { OPENAI_API_KEY: 'sk-live-123456' } });
    expect(actorPrivateEnvKeys(home.layout, 'user', gid, 'lead').keys).toEqual(['OPENAI_API_KEY']);
    await expect(addActor(home.layout, 'lead', gid, { actor_id: 'x', runtime: 'codex', env_private: {} })).rejects.toMatchObject({ code: 'permission_denied' });
    await addActor(home.layout, 'lead', gid, { actor_id: 'lead2', runtime: 'codex' });
    expect(actorPrivateEnvKeys(home.layout, 'user', gid, 'lead2').keys).toEqual(['OPENAI_API_KEY']);

    // A re-added id never revives an earlier generation's secrets.
    await updateActorPrivateEnv(home.layout, 'user', gid, 'lead2', { set: { OLD: 'x' } });
    await removeActor(home.layout, 'user', gid, 'lead2');
    expect(existsSync(home.layout.actorSecretsPath(gid, 'lead2'))).toBe(false);
    await addActor(home.layout, 'user', gid, { actor_id: 'lead2', runtime: 'claude' });
    expect(actorPrivateEnvKeys(home.layout, 'user', gid, 'lead2').keys).toEqual([]);
  });
});
