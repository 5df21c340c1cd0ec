import {
  copyProfileSecretsFromActor,
  copyProfileSecretsFromProfile,
  deleteProfile,
  getProfile,
  listProfiles,
  principalOf,
  profileSecretKeys,
  updateProfileSecrets,
  upsertProfile,
  type ProfileInput,
} from '@cccc/groups';
import type { OpResult, OpRouter } from '@cccc/ipc-protocol';
import { changeGroupFiles } from './group-write.js';
import type { StoreDeps } from '../kernel/store-deps.js';

type ProfileView = OpResult<'actor_profile_get'>['profile'];

export type ProfilesOpsDeps = Pick<StoreDeps, 'layout' | 'groups' | 'ledgers' | 'groupLocks'>;

/**
 * §8.5 Actor Profiles: global documents under state/actor_profiles, so no group ledger event.
 * Secrets are write-only; the groups lib returns key names (and masked previews) only.
 */
export function registerProfilesOps(router: OpRouter, deps: ProfilesOpsDeps): void {
  const { layout } = deps;

  router.register('actor_profile_list', (args) => {
    const { profiles } = listProfiles(layout, principalOf(args.by));
    return { profiles: profiles as Array<ProfileView & { usage_count: number }> };
  });

  router.register('actor_profile_get', (args) => {
    const { profile, usage } = getProfile(layout, principalOf(args.by), args.profile_id);
    return { profile: profile as ProfileView, usage };
  });

  router.register('actor_profile_upsert', async (args) => {
    const { profile } = await upsertProfile(layout, principalOf(args.by), args.profile as ProfileInput, args.expected_revision);
    return { profile: profile as ProfileView };
  });

  router.register('actor_profile_delete', (args) =>
    deleteProfile(layout, principalOf(args.by), args.profile_id, { forceDetach: args.force_detach === true }),
  );

  router.register('actor_profile_secret_keys', (args) => profileSecretKeys(layout, principalOf(args.by), args.profile_id));

  router.register('actor_profile_secret_update', (args) => {
    const { set, unset, clear } = args;
    return updateProfileSecrets(layout, principalOf(args.by), args.profile_id, { set, unset, clear });
  });

  // Reads the actor's secrets under its group's lock so a concurrent private-env write is not torn.
  router.register('actor_profile_secret_copy_from_actor', (args) =>
    changeGroupFiles(deps, args.group_id, () =>
      copyProfileSecretsFromActor(layout, principalOf(args.by), args.profile_id, args.group_id, args.actor_id),
    ),
  );

  router.register('actor_profile_secret_copy_from_profile', (args) =>
    copyProfileSecretsFromProfile(layout, principalOf(args.by), args.profile_id, args.source_profile_id),
  );
}
