import { z } from 'zod';
import { defineOp } from './define.js';
import { ByArg, GroupIdArg } from './shared.js';

// §8.1 debug_snapshot: developer-mode diagnostics, global plus an optional group.

/** group_id is optional (global snapshot without it), so it never yields missing_group_id. */
export const debug_snapshot = defineOp({
  summary: 'Developer-mode diagnostic snapshot (global and optional group context).',
  args: z.object({ group_id: GroupIdArg.optional(), by: ByArg }),
  result: z.object({
    developer_mode: z.literal(true),
    observability: z.record(z.string(), z.unknown()),
    daemon: z.object({ pid: z.number().int(), version: z.string(), ts: z.string() }),
    group: z
      .object({ group_id: z.string(), state: z.string(), active_scope_key: z.string(), title: z.string() })
      .optional(),
    actors: z
      .array(
        z.object({
          id: z.string(),
          role: z.string(),
          runtime: z.string(),
          runner: z.string(),
          runner_effective: z.string(),
          enabled: z.boolean(),
          running: z.boolean(),
          unread_count: z.number().int().nonnegative(),
        }),
      )
      .optional(),
    delivery: z.record(z.string(), z.unknown()).optional(),
  }),
});
