import { z } from 'zod';
import { CCCSEventV1 } from '../events.js';
import { defineOp } from './define.js';
import { ActorDoc } from './documents.js';
import { ActorIdArg, ByArg, CommandArgv, GroupIdArg } from './shared.js';

// §8.4 runtime session ops of native PTY actors, and the runtime catalog.

/** Stop the actor's process if present and start a fresh PTY session with the same settings. */
export const actor_new_session = defineOp({
  summary: "Replace an actor's runtime session: stop the current process, start a fresh one.",
  args: () => z.object({ group_id: GroupIdArg, actor_id: ActorIdArg, by: ByArg }),
  result: () => z.object({ actor: ActorDoc, event: CCCSEventV1, new_session: z.literal(true) }),
});

/** How a runtime is reached: a TUI in a PTY, or only a headless provider. */
export const RuntimeTransport = z.enum(['pty', 'headless_only', 'none']);

/** One runtime of the catalog, and whether its CLI is on the daemon's PATH. */
export const RuntimeListEntry = z.object({
  runtime: z.string(),
  /** The executable looked for (argv[0] of the default command); absent for `custom`. */
  binary: z.string().optional(),
  installed: z.boolean(),
  path: z.string().optional(),
  transport: RuntimeTransport,
  /** The default argv; empty for `custom` and runtimes without a command. */
  command: CommandArgv,
});
export type RuntimeListEntry = z.infer<typeof RuntimeListEntry>;

/**
 * Extension (issue 16): the spec names no op for the runtime catalog the Web's actor form offers
 * (`GET /api/v1/runtimes`), and the Web process may not load the PTY library to read it. Named
 * after the reference's `cccc_runtime_list` tool; advertised in `ping.capabilities`. Installed
 * means found on the daemon's PATH, the one actors are launched with.
 */
export const runtime_list = defineOp({
  summary: 'The runtime catalog (claude, codex, ..., custom) and which CLIs are on the daemon PATH.',
  args: () => z.object({}),
  result: () => z.object({ runtimes: z.array(RuntimeListEntry) }),
});
