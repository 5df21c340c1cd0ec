import { z } from 'zod';

/** `context.sync`: one applied `context_sync` batch (CONTEXT_OPS_NOTES). */
export const ContextSyncData = z.looseObject({
  version: z.string(),
  tasks_version: z.string().nullish(),
  changes: z.array(z.unknown()),
});
export type ContextSyncData = z.infer<typeof ContextSyncData>;
