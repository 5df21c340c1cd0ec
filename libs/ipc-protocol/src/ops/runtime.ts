import { z } from 'zod';
import { CCCSEventV1 } from '../events.js';
import { defineOp } from './define.js';
import { ActorDoc } from './documents.js';
import { ActorIdArg, ByArg, GroupIdArg } from './shared.js';

// §8.4 runtime session ops of native PTY actors.

/** Stop the actor's process if present and start a fresh PTY session with the same settings. */
export const actor_new_session = defineOp({
  summary: "Replace an actor's runtime session: stop the current process, start a fresh one.",
  args: z.object({ group_id: GroupIdArg, actor_id: ActorIdArg, by: ByArg }),
  result: z.object({ actor: ActorDoc, event: CCCSEventV1, new_session: z.literal(true) }),
});
