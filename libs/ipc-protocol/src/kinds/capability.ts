import { z } from 'zod';

/**
 * `capability.changed` (§8.3 capability_install_target): one event per committed install batch
 * that changed catalog, bindings or visibility. Ids only: never install specs or env values.
 */
export const CapabilityChangedData = z.looseObject({
  action: z.string().min(1),
  actor_id: z.string(),
  scope: z.enum(['group', 'actor', 'session']).optional(),
  target: z.string().optional(),
  target_kind: z.string().optional(),
  capability_ids: z.array(z.string()),
  enabled_capability_ids: z.array(z.string()).optional(),
});
export type CapabilityChangedData = z.infer<typeof CapabilityChangedData>;
