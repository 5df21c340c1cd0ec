import { findActor } from './actors.js';
import { utcNowIso } from './clock.js';
import { groupError } from './errors.js';
import { loadGroup, updateGroup } from './group-store.js';
import type { HomeLayout } from './home-layout.js';
import { checkPermission } from './permissions.js';
import { loadProfile, listProfileDocs, removeProfileFiles, saveProfile, type ProfileInput } from './profile-store.js';
import { readRegistry } from './registry-store.js';
import type { ActorDoc } from './schemas/actor.js';
import type { ProfileDoc } from './schemas/profile.js';
import { maskSecret, readSecretMap, secretKeys, updateSecretFile, type SecretMapUpdate } from './secrets-store.js';
import { normalizeCommand } from './command-line.js';

export interface ProfileUsage {
  group_id: string;
  group_title?: string;
  actor_id: string;
  actor_title?: string;
}

/** Every actor in every registered group linked to `profileId`. */
export function profileUsage(layout: HomeLayout, profileId: string): ProfileUsage[] {
  const out: ProfileUsage[] = [];
  for (const groupId of Object.keys(readRegistry(layout).groups)) {
    let actors: ActorDoc[];
    let title: string;
    try {
      const group = loadGroup(layout, groupId);
      actors = group.actors;
      title = group.title;
    } catch {
      continue;
    }
    for (const actor of actors) {
      if (actor.profile_id === profileId) out.push({ group_id: groupId, group_title: title, actor_id: actor.id, actor_title: actor.title });
    }
  }
  return out;
}

/** A profile as reads return it: the command always as argv, never any secret value. */
function profileView(profile: ProfileDoc): Record<string, unknown> {
  return { ...profile, command: normalizeCommand(profile.command), env: {} };
}

/** `actor_profile_list`. */
export function listProfiles(layout: HomeLayout, by: string | undefined): { profiles: Record<string, unknown>[] } {
  checkPermission(by, 'profile.read');
  return { profiles: listProfileDocs(layout).map((p) => ({ ...profileView(p), usage_count: profileUsage(layout, p.id).length })) };
}

/** `actor_profile_get`. */
export function getProfile(layout: HomeLayout, by: string | undefined, profileId: string): { profile: Record<string, unknown>; usage: ProfileUsage[] } {
  checkPermission(by, 'profile.read');
  return { profile: profileView(loadProfile(layout, profileId)), usage: profileUsage(layout, profileId) };
}

/** `actor_profile_upsert` (user only). Legacy `profile.env` values move into profile secrets. */
export async function upsertProfile(
  layout: HomeLayout,
  by: string | undefined,
  profile: ProfileInput,
  expectedRevision?: number,
): Promise<{ profile: Record<string, unknown> }> {
  checkPermission(by, 'profile.write');
  const saved = await saveProfile(layout, profile, expectedRevision);
  if (Object.keys(saved.legacyEnv).length > 0) {
    await updateSecretFile(layout, layout.profileSecretsPath(saved.profile.id), { set: saved.legacyEnv });
  }
  return { profile: profileView(saved.profile) };
}

/**
 * Convert one linked actor to a custom actor: snapshot the profile's runtime fields into the
 * actor and its secrets into the actor's private env (replacing dormant custom secrets).
 */
export async function convertActorToCustom(layout: HomeLayout, by: string | undefined, groupId: string, actorId: string): Promise<ActorDoc> {
  checkPermission(by, 'actor.update', { targetActorId: actorId });
  const { result } = await updateGroup(layout, groupId, (g) => {
    const actor = findActor(g.actors, actorId);
    if (!actor.profile_id) return { actor, profileId: '' };
    const profile = loadProfile(layout, actor.profile_id);
    const profileId = actor.profile_id;
    Object.assign(actor, {
      runtime: profile.runtime,
      command: normalizeCommand(profile.command),
      submit: profile.submit,
      profile_id: '',
      profile_revision_applied: 0,
      updated_at: utcNowIso(),
    });
    if (profile.runtime_mode) (actor as Record<string, unknown>).runtime_mode = profile.runtime_mode;
    return { actor, profileId };
  });
  if (result.profileId) {
    const secrets = readSecretMap(layout.profileSecretsPath(result.profileId));
    await updateSecretFile(layout, layout.actorSecretsPath(groupId, actorId), () => secrets);
  }
  return result.actor;
}

/** `actor_profile_delete`: `profile_in_use` unless `forceDetach`, which converts linked actors to custom first. */
export async function deleteProfile(
  layout: HomeLayout,
  by: string | undefined,
  profileId: string,
  options: { forceDetach?: boolean } = {},
): Promise<{ deleted: true; profile_id: string; detached_count: number; detached: Array<{ group_id: string; actor_id: string }> }> {
  checkPermission(by, 'profile.write');
  loadProfile(layout, profileId);
  const usage = profileUsage(layout, profileId);
  if (usage.length > 0 && !options.forceDetach) {
    throw groupError('profile_in_use', `profile ${profileId} is used by ${usage.length} actor(s)`, {
      profile_id: profileId,
      usage: usage.map((u) => ({ group_id: u.group_id, actor_id: u.actor_id })),
    });
  }
  const detached: Array<{ group_id: string; actor_id: string }> = [];
  for (const use of usage) {
    await convertActorToCustom(layout, by, use.group_id, use.actor_id);
    detached.push({ group_id: use.group_id, actor_id: use.actor_id });
  }
  removeProfileFiles(layout, profileId);
  return { deleted: true, profile_id: profileId, detached_count: detached.length, detached };
}

/** `actor_profile_secret_keys`: names plus masked previews; never a value. */
export function profileSecretKeys(
  layout: HomeLayout,
  by: string | undefined,
  profileId: string,
): { profile_id: string; keys: string[]; masked_values: Record<string, string> } {
  checkPermission(by, 'profile.secret');
  loadProfile(layout, profileId);
  const map = readSecretMap(layout.profileSecretsPath(profileId));
  const keys = Object.keys(map).sort();
  return { profile_id: profileId, keys, masked_values: Object.fromEntries(keys.map((k) => [k, maskSecret(map[k]!)])) };
}

/** `actor_profile_secret_update`. */
export async function updateProfileSecrets(
  layout: HomeLayout,
  by: string | undefined,
  profileId: string,
  update: SecretMapUpdate,
): Promise<{ profile_id: string; keys: string[] }> {
  checkPermission(by, 'profile.secret');
  loadProfile(layout, profileId);
  return { profile_id: profileId, keys: await updateSecretFile(layout, layout.profileSecretsPath(profileId), update) };
}

/** `actor_profile_secret_copy_from_actor`: the actor's effective explicit env (profile secrets if linked, else private env). */
export async function copyProfileSecretsFromActor(
  layout: HomeLayout,
  by: string | undefined,
  profileId: string,
  groupId: string,
  actorId: string,
): Promise<{ profile_id: string; group_id: string; actor_id: string; keys: string[] }> {
  checkPermission(by, 'profile.secret');
  loadProfile(layout, profileId);
  const actor = findActor(loadGroup(layout, groupId).actors, actorId);
  const source = actor.profile_id
    ? readSecretMap(layout.profileSecretsPath((loadProfile(layout, actor.profile_id), actor.profile_id)))
    : readSecretMap(layout.actorSecretsPath(groupId, actorId));
  const keys = await updateSecretFile(layout, layout.profileSecretsPath(profileId), () => ({ ...source }));
  return { profile_id: profileId, group_id: groupId, actor_id: actorId, keys };
}

/** `actor_profile_secret_copy_from_profile`. */
export async function copyProfileSecretsFromProfile(
  layout: HomeLayout,
  by: string | undefined,
  profileId: string,
  sourceProfileId: string,
): Promise<{ profile_id: string; source_profile_id: string; keys: string[] }> {
  checkPermission(by, 'profile.secret');
  loadProfile(layout, profileId);
  loadProfile(layout, sourceProfileId);
  const source = readSecretMap(layout.profileSecretsPath(sourceProfileId));
  const keys = await updateSecretFile(layout, layout.profileSecretsPath(profileId), () => ({ ...source }));
  return { profile_id: profileId, source_profile_id: sourceProfileId, keys };
}

export { secretKeys, type SecretMapUpdate };
