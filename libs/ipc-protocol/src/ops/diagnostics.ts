import { z } from 'zod';
import { defineOp } from './define.js';
import { ByArg, GroupIdArg } from './shared.js';

// §8.1 debug_snapshot: developer-mode diagnostics, global plus an optional group.

/** group_id is optional (global snapshot without it), so it never yields missing_group_id. */
export const debug_snapshot = defineOp({
  summary: 'Developer-mode diagnostic snapshot (global and optional group context).',
  args: () => z.object({ group_id: GroupIdArg.optional(), by: ByArg }),
  result: () => z.object({
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
          /**
           * What this daemon runs (or would run) the actor in: `pty`, the only runner it has,
           * whatever `runner` the actor asks for.
           */
          runner_effective: z.string(),
          enabled: z.boolean(),
          /** A live process of this daemon, not a constant. */
          running: z.boolean(),
          /** Its process id while running, else null. */
          pid: z.number().int().nullable().optional(),
          unread_count: z.number().int().nonnegative(),
        }),
      )
      .optional(),
    delivery: z.record(z.string(), z.unknown()).optional(),
  }),
});

// §8.11 debug_tail_logs / debug_clear_logs: the daemon's (and companion processes') log files.

/** Spec components plus their aliases; anything else is `invalid_component` from the handler. */
export const LOG_COMPONENTS = ['daemon', 'ccccd', 'web', 'im', 'im_bridge'] as const;
/** Carried as a string so an unknown name gets its own stable code, not `invalid_request`. */
const ComponentArg = z.string();

export const debug_tail_logs = defineOp({
  summary: 'Tail a daemon/web/im-bridge log file (developer mode).',
  args: () => z.object({ component: ComponentArg, group_id: GroupIdArg.optional(), by: ByArg, lines: z.number().int().optional() }),
  result: () => z.object({
    component: z.string(),
    group_id: z.string(),
    path: z.string(),
    lines: z.array(z.string()),
    /** Extension: true when older lines, or the tail of an over-long line, were left out. */
    truncated: z.boolean().optional(),
  }),
});

export const debug_clear_logs = defineOp({
  summary: 'Truncate a daemon/web/im-bridge log file (developer mode).',
  args: () => z.object({ component: ComponentArg, group_id: GroupIdArg.optional(), by: ByArg }),
  result: () => z.object({ component: z.string(), group_id: z.string(), path: z.string(), cleared: z.literal(true) }),
});
