import { findActor } from './actors.js';
import { loadGroup } from './group-store.js';
import type { HomeLayout } from './home-layout.js';
import { checkPermission } from './permissions.js';
import { readSecretMap, secretKeys, updateSecretFile, type SecretMapUpdate } from './secrets-store.js';

export interface PrivateEnvKeys {
  group_id: string;
  actor_id: string;
  keys: string[];
}

/** `actor_env_private_keys`: key names only; `by` must be user. */
export function actorPrivateEnvKeys(layout: HomeLayout, by: string | undefined, groupId: string, actorId: string): PrivateEnvKeys {
  checkPermission(by, 'actor.env_private', { targetActorId: actorId });
  findActor(loadGroup(layout, groupId).actors, actorId);
  return { group_id: groupId, actor_id: actorId, keys: secretKeys(layout.actorSecretsPath(groupId, actorId)) };
}

/** `actor_env_private_update`: set/unset/clear (clear wins over the old content); returns key names only. */
export async function updateActorPrivateEnv(
  layout: HomeLayout,
  by: string | undefined,
  groupId: string,
  actorId: string,
  update: SecretMapUpdate,
): Promise<PrivateEnvKeys> {
  checkPermission(by, 'actor.env_private', { targetActorId: actorId });
  findActor(loadGroup(layout, groupId).actors, actorId);
  const keys = await updateSecretFile(layout, layout.actorSecretsPath(groupId, actorId), update);
  return { group_id: groupId, actor_id: actorId, keys };
}

/**
 * The private env values for launching a runtime (daemon-internal; never put it in a result,
 * an event or a log line). Effective env = daemon env → actor.env → this → CCCC_* ids.
 */
export function readActorPrivateEnvForLaunch(layout: HomeLayout, groupId: string, actorId: string): Record<string, string> {
  return readSecretMap(layout.actorSecretsPath(groupId, actorId));
}
