import { rmSync } from 'node:fs';
import { actorViews, applyActorPatch, buildActor, findActor, foremanOf, type ActorView, type NewActorInput } from './actors.js';
import { utcNowIso } from './clock.js';
import { groupError } from './errors.js';
import { loadGroup, updateGroup } from './group-store.js';
import type { HomeLayout } from './home-layout.js';
import { checkPermission, isStrictForemanClone, isUserPrincipal } from './permissions.js';
import { loadProfile } from './profile-store.js';
import type { ActorDoc } from './schemas/actor.js';
import type { GroupDoc } from './schemas/group.js';
import { readSecretMap, updateSecretFile, validateSecretUpdate, writeSecretMap } from './secrets-store.js';

/** `actor_list`: every actor document plus its role. */
export function listActors(layout: HomeLayout, groupId: string): ActorView[] {
  return actorViews(loadGroup(layout, groupId).actors);
}

export interface AddActorInput extends NewActorInput {
  /** Write-only private env; authoritative for this create (clears stale keys). User only. */
  env_private?: Record<string, string>;
}

export interface AddActorOptions {
  /**
   * The runtimes this daemon can run (its runtime catalog, which this library does not own).
   * Another runtime is refused like the reference does: `actor_add_failed`, "invalid runtime".
   */
  readonly isKnownRuntime?: (runtime: string) => boolean;
}

/**
 * `actor_add`. User may add anything; the foreman only a strict clone of itself (which then
 * inherits its private env); peers nothing. A `profile_id` applies the profile's runtime
 * fields and excludes `env_private`.
 */
export async function addActor(
  layout: HomeLayout,
  by: string | undefined,
  groupId: string,
  input: AddActorInput,
  options: AddActorOptions = {},
): Promise<{ actor: ActorDoc; group: GroupDoc }> {
  if (input.env_private !== undefined) {
    if (!isUserPrincipal(by)) throw groupError('permission_denied', 'env_private is restricted to user', { action: 'actor.env_private' });
    if (input.profile_id) throw groupError('invalid_request', 'env_private cannot be combined with profile_id', { field: 'env_private' });
    validateSecretUpdate({ set: input.env_private });
  }
  let effective: NewActorInput = { ...input };
  delete (effective as AddActorInput).env_private;
  if (input.profile_id) {
    const profile = loadProfile(layout, input.profile_id);
    effective = { ...effective, runtime: profile.runtime, command: profile.command, submit: profile.submit, env: {} };
    if (profile.runtime_mode) effective.runtime_mode = profile.runtime_mode;
  }
  let cloneOf: ActorDoc | undefined;
  const { group, result: actor } = await updateGroup(layout, groupId, (g) => {
    const candidate = buildActor(effective, g.actors, utcNowIso());
    const foreman = foremanOf(g.actors);
    const isForemanClone = foreman !== undefined && by === foreman.id && isStrictForemanClone(foreman, candidate);
    checkPermission(by, 'actor.add', { actors: g.actors, isForemanClone });
    if (options.isKnownRuntime && !options.isKnownRuntime(candidate.runtime ?? '')) {
      throw groupError('actor_add_failed', 'invalid runtime', { reason: 'invalid_runtime', field: 'runtime', runtime: candidate.runtime });
    }
    if (input.profile_id) candidate.profile_revision_applied = loadProfile(layout, input.profile_id).revision;
    if (isForemanClone) cloneOf = foreman;
    g.actors.push(candidate);
    return candidate;
  });
  if (input.env_private !== undefined) {
    await updateSecretFile(layout, layout.actorSecretsPath(groupId, actor.id), { clear: true, set: input.env_private });
  } else if (cloneOf) {
    const inherited = readSecretMap(layout.actorSecretsPath(groupId, cloneOf.id));
    writeSecretMap(layout, layout.actorSecretsPath(groupId, actor.id), inherited);
  } else {
    // A re-added id starts a new generation: never revive an earlier generation's secrets.
    await updateSecretFile(layout, layout.actorSecretsPath(groupId, actor.id), { clear: true });
  }
  return { actor, group };
}

/** `actor_update` (user only): returns the new document and the applied patch for the `actor.update` event. */
export async function updateActor(
  layout: HomeLayout,
  by: string | undefined,
  groupId: string,
  actorId: string,
  patch: Record<string, unknown>,
): Promise<{ actor: ActorDoc; patch: Record<string, unknown>; group: GroupDoc }> {
  checkPermission(by, 'actor.update', { targetActorId: actorId });
  const { group, result } = await updateGroup(layout, groupId, (g) => {
    const index = g.actors.findIndex((a) => a.id === actorId);
    if (index < 0) throw groupError('actor_not_found', `actor not found: ${actorId}`, { actor_id: actorId });
    const next = applyActorPatch(g.actors[index]!, patch, utcNowIso());
    g.actors[index] = next.actor;
    return next;
  });
  return { actor: result.actor, patch: result.patch, group };
}

/** Record an actor's desired enabled state (`actor_start`/`actor_stop` before runtimes exist). */
export async function setActorEnabled(
  layout: HomeLayout,
  by: string | undefined,
  groupId: string,
  actorId: string,
  enabled: boolean,
): Promise<ActorDoc> {
  const { result } = await updateGroup(layout, groupId, (g) => {
    checkPermission(by, enabled ? 'actor.start' : 'actor.stop', { actors: g.actors, targetActorId: actorId });
    const actor = findActor(g.actors, actorId);
    actor.enabled = enabled;
    actor.updated_at = utcNowIso();
    return actor;
  });
  return result;
}

/** `actor_remove`: ends the actor's generation and deletes its private env. */
export async function removeActor(
  layout: HomeLayout,
  by: string | undefined,
  groupId: string,
  actorId: string,
): Promise<{ actor_id: string; group: GroupDoc }> {
  const { group } = await updateGroup(layout, groupId, (g) => {
    checkPermission(by, 'actor.remove', { actors: g.actors, targetActorId: actorId });
    findActor(g.actors, actorId);
    g.actors = g.actors.filter((a) => a.id !== actorId);
  });
  rmSync(layout.actorSecretsPath(groupId, actorId), { force: true });
  return { actor_id: actorId, group };
}
