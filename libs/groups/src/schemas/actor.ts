import { z } from 'zod';

export const SubmitMode = z.enum(['enter', 'newline', 'none']);
export type SubmitMode = z.infer<typeof SubmitMode>;

export const RunnerKind = z.enum(['pty', 'headless']);
export type RunnerKind = z.infer<typeof RunnerKind>;

export const RuntimeStateSource = z.enum(['terminal', 'app_server']);

/** The actor document stored in `group.yaml actors[]` (`contracts/v1/actor.py::Actor`). */
export const ActorDoc = z.looseObject({
  v: z.number().int().default(1),
  id: z.string(),
  title: z.string().default(''),
  command: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  default_scope_key: z.string().default(''),
  submit: SubmitMode.default('enter'),
  capability_autoload: z.array(z.string()).default([]),
  capability_hidden: z.array(z.string()).default([]),
  enabled: z.boolean().default(true),
  runner: RunnerKind.default('pty'),
  runtime: z.string().default('custom'),
  runtime_state_source: RuntimeStateSource.default('terminal'),
  internal_kind: z.string().nullish(),
  avatar_asset_path: z.string().default(''),
  profile_id: z.string().default(''),
  profile_scope: z.string().default('global'),
  profile_owner: z.string().default(''),
  profile_revision_applied: z.number().int().default(0),
  created_at: z.string().default(''),
  updated_at: z.string().default(''),
});
export type ActorDoc = z.infer<typeof ActorDoc>;
