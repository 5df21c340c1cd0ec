import { z } from 'zod';
import { defineOp } from './define.js';
import {
  ActorIdArg,
  ByArg,
  CommandArgv,
  EnvMap,
  GroupIdArg,
  ProfileIdArg,
  RuntimeMode,
  SecretKeys,
  SubmitMode,
  secretUpdateArgs,
} from './shared.js';

// §8.5 Actor Profiles: global reusable runtime profiles and their write-only secrets.

/** Stored profiles are implementation-shaped (`Record<string, unknown>`); `id` is always there. */
export const ProfileDoc = z.looseObject({ id: z.string().min(1) });

export const actor_profile_list = defineOp({
  summary: 'List actor profiles with their usage counts.',
  args: () => z.object({ by: ByArg }),
  result: () => z.object({ profiles: z.array(ProfileDoc.extend({ usage_count: z.number().int().nonnegative() })) }),
});

export const actor_profile_get = defineOp({
  summary: 'Read one profile and the actors linked to it.',
  args: () => z.object({ profile_id: ProfileIdArg, by: ByArg }),
  result: () => z.object({
    profile: ProfileDoc,
    usage: z.array(
      z.object({
        group_id: z.string(),
        group_title: z.string().optional(),
        actor_id: z.string(),
        actor_title: z.string().optional(),
      }),
    ),
  }),
});

/**
 * Profile input. `command` still accepts the historical shell string (normalized to argv on
 * write); `env` is the deprecated bridge that the daemon migrates into profile secrets;
 * `session_ttl_seconds` is clamped to 60..86400 by the daemon, not rejected here.
 */
export const ProfileInput = z.object({
  id: z.string().optional(),
  name: z.string().min(1),
  runtime: z.string().min(1),
  runtime_mode: RuntimeMode.optional(),
  command: z.union([CommandArgv, z.string()]).optional(),
  submit: SubmitMode.optional(),
  env: EnvMap.optional(),
  capability_defaults: z
    .object({
      autoload_capabilities: z.array(z.string()).optional(),
      default_scope: z.enum(['actor', 'session']).optional(),
      session_ttl_seconds: z.number().optional(),
    })
    .nullish(),
});
export type ProfileInput = z.infer<typeof ProfileInput>;

export const actor_profile_upsert = defineOp({
  summary: 'Create or update a profile with optimistic concurrency.',
  args: () => z.object({ by: ByArg, profile: ProfileInput, expected_revision: z.number().int().nonnegative().optional() }),
  result: () => z.object({ profile: ProfileDoc }),
});

export const actor_profile_delete = defineOp({
  summary: 'Delete a profile (profile_in_use unless force_detach converts linked actors first).',
  args: () => z.object({ profile_id: ProfileIdArg, by: ByArg, force_detach: z.boolean().optional() }),
  result: () => z.object({
    deleted: z.literal(true),
    profile_id: z.string(),
    detached_count: z.number().int().nonnegative(),
    detached: z.array(z.object({ group_id: z.string(), actor_id: z.string() })),
  }),
});

/**
 * Key names plus the masked previews the spec names (`masked_values`); never plain values.
 * Strict, like every secret result, so an extra field fails result validation.
 */
export const actor_profile_secret_keys = defineOp({
  summary: 'List profile secret keys with masked previews.',
  args: () => z.object({ profile_id: ProfileIdArg, by: ByArg }),
  result: () => z.strictObject({ profile_id: z.string(), keys: SecretKeys, masked_values: z.record(z.string(), z.string()) }),
});

export const actor_profile_secret_update = defineOp({
  summary: 'Set, unset or clear profile secrets (write-only).',
  args: () => z.object({ profile_id: ProfileIdArg, by: ByArg, ...secretUpdateArgs }),
  result: () => z.strictObject({ profile_id: z.string(), keys: SecretKeys }),
});

/** group_id and actor_id are required by the spec, so their absence is missing_group_id/_actor_id. */
export const actor_profile_secret_copy_from_actor = defineOp({
  summary: "Copy an actor's effective explicit environment into profile secrets (server-side).",
  args: () => z.object({ profile_id: ProfileIdArg, group_id: GroupIdArg, actor_id: ActorIdArg, by: ByArg }),
  result: () => z.strictObject({ profile_id: z.string(), group_id: z.string(), actor_id: z.string(), keys: SecretKeys }),
});

export const actor_profile_secret_copy_from_profile = defineOp({
  summary: "Copy one profile's secrets into another (server-side).",
  args: () => z.object({ profile_id: ProfileIdArg, source_profile_id: ProfileIdArg, by: ByArg }),
  result: () => z.strictObject({ profile_id: z.string(), source_profile_id: z.string(), keys: SecretKeys }),
});
