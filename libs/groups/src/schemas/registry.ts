import { z } from 'zod';

/** One group summary in `registry.json`; unknown keys are kept (the reference may add more). */
export const RegistryEntry = z.looseObject({
  group_id: z.string(),
  title: z.string().optional(),
  topic: z.string().optional(),
  path: z.string().optional(),
  default_scope_key: z.string().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type RegistryEntry = z.infer<typeof RegistryEntry>;

/** `CCCC_HOME/registry.json` (REFERENCE_NOTES §2, `kernel/registry.py`). */
export const RegistryDoc = z.looseObject({
  v: z.number().int().default(1),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  groups: z.record(z.string(), RegistryEntry).default({}),
  defaults: z.record(z.string(), z.string()).default({}),
});
export type RegistryDoc = z.infer<typeof RegistryDoc>;

/** `CCCC_HOME/active.json`: the CLI's active group. */
export const ActiveDoc = z.looseObject({
  v: z.number().int().default(1),
  active_group_id: z.string().default(''),
  updated_at: z.string().optional(),
});
export type ActiveDoc = z.infer<typeof ActiveDoc>;
