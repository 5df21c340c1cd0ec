import { z } from 'zod';
import { CCCSEventV1 } from '../events.js';
import { defineOp } from './define.js';
import { ActorDoc, ActorListEntry } from './documents.js';
import { ActorStartProblem } from './start-report.js';
import {
  ActorIdArg,
  ByArg,
  CommandArgv,
  EnvMap,
  GroupIdArg,
  RuntimeMode,
  SecretKeys,
  SubmitMode,
  secretUpdateArgs,
} from './shared.js';

// §8.4 Actors: registration, edits and the write-only private env.

export const actor_list = defineOp({
  summary: 'List the actors of a group with role and running state.',
  args: () => z.object({ group_id: GroupIdArg, include_unread: z.boolean().optional() }),
  result: () => z.object({ actors: z.array(ActorListEntry) }),
});

/**
 * `actor_id` may be omitted or blank: the daemon then assigns `<runtime>-N`, so it is a plain
 * optional string (a required key would turn absence into missing_actor_id). Id rules and the
 * profile_id/env_private exclusion are domain checks with their own codes.
 */
export const actor_add = defineOp({
  summary: 'Register an actor in a group (may start it when the group is active or idle).',
  args: () => z.object({
    group_id: GroupIdArg,
    actor_id: z.string().optional(),
    title: z.string().optional(),
    runtime: z.string().optional(),
    runtime_mode: RuntimeMode.optional(),
    command: CommandArgv.optional(),
    env: EnvMap.optional(),
    capability_autoload: z.array(z.string()).optional(),
    capability_hidden: z.array(z.string()).optional(),
    /** Write-only; by="user" only; authoritative for this create even when empty. */
    env_private: EnvMap.optional(),
    profile_id: z.string().optional(),
    default_scope_key: z.string().optional(),
    submit: SubmitMode.optional(),
    by: ByArg,
  }),
  result: () => z.object({
    actor: ActorDoc,
    event: CCCSEventV1,
    running: z.boolean().optional(),
    start_event: CCCSEventV1.optional(),
    /** The reference's one-line reason when the immediate start did not run (`running: false`). */
    start_error: z.string().optional(),
    /** The same, structured (code, exit code, signal, output tail). */
    start_failure: ActorStartProblem.optional(),
    /** The actor runs, with a caveat (e.g. a failed version probe: no hooks). */
    start_warning: ActorStartProblem.optional(),
  }),
});

/**
 * Patch keys the spec lists, typed so a malformed value (e.g. a shell string for `command`,
 * which would lose argument boundaries) fails at the boundary. The object stays loose because
 * the spec types the patch as an open record; unlisted keys reach the groups lib untouched.
 */
export const ActorPatch = z.looseObject({
  title: z.string().optional(),
  runtime: z.string().optional(),
  runtime_mode: RuntimeMode.optional(),
  command: CommandArgv.optional(),
  submit: SubmitMode.optional(),
  default_scope_key: z.string().optional(),
  enabled: z.boolean().optional(),
  env: EnvMap.optional(),
  capability_autoload: z.array(z.string()).optional(),
});
export type ActorPatch = z.infer<typeof ActorPatch>;

export const actor_update = defineOp({
  summary: 'Edit an actor, link it to a profile or convert it back to custom.',
  args: () => z.object({
    group_id: GroupIdArg,
    actor_id: ActorIdArg,
    by: ByArg,
    patch: ActorPatch,
    profile_id: z.string().optional(),
    profile_action: z.literal('convert_to_custom').optional(),
  }),
  result: () => z.object({ actor: ActorDoc, event: CCCSEventV1 }),
});

export const actor_remove = defineOp({
  summary: 'Remove an actor, ending its current generation.',
  args: () => z.object({ group_id: GroupIdArg, actor_id: ActorIdArg, by: ByArg }),
  result: () => z.object({ actor_id: z.string(), event: CCCSEventV1 }),
});

/** Key names only, strict: a handler that leaks a value fails result validation. */
export const PrivateEnvKeysResult = z.strictObject({ group_id: z.string(), actor_id: z.string(), keys: SecretKeys });

export const actor_env_private_keys = defineOp({
  summary: "List an actor's private env keys (never values).",
  args: () => z.object({ group_id: GroupIdArg, actor_id: ActorIdArg, by: ByArg }),
  result: () => PrivateEnvKeysResult,
});

export const actor_env_private_update = defineOp({
  summary: "Set, unset or clear an actor's private env (write-only).",
  args: () => z.object({ group_id: GroupIdArg, actor_id: ActorIdArg, by: ByArg, ...secretUpdateArgs }),
  result: () => PrivateEnvKeysResult,
});
