import { z } from 'zod';
import { SubmitMode } from './actor.js';

export const CapabilityDefaults = z.looseObject({
  autoload_capabilities: z.array(z.string()).optional(),
  default_scope: z.enum(['actor', 'session']).optional(),
  session_ttl_seconds: z.number().optional(),
});

/** A global Actor Profile, `state/actor_profiles/<id>.json` (spec §8.5). Secrets live elsewhere. */
export const ProfileDoc = z.looseObject({
  v: z.number().int().default(1),
  id: z.string(),
  name: z.string(),
  runtime: z.string(),
  runtime_mode: z.enum(['default', 'acp']).optional(),
  // Older profiles may hold a shell string; readers accept it until the profile is saved again.
  command: z.union([z.array(z.string()), z.string()]).default([]),
  submit: SubmitMode.default('enter'),
  env: z.record(z.string(), z.string()).default({}),
  capability_defaults: CapabilityDefaults.nullish(),
  revision: z.number().int().default(1),
  created_at: z.string().default(''),
  updated_at: z.string().default(''),
});
export type ProfileDoc = z.infer<typeof ProfileDoc>;

/**
 * A secrets file (`state/secrets/**.json`, mode 0600): a flat env-name → value map, the shape
 * the reference keeps for private env. Never returned by a read; only key names leave the store.
 */
export const SecretsDoc = z.record(z.string(), z.string());
export type SecretsDoc = z.infer<typeof SecretsDoc>;
