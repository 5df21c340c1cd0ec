import { z } from 'zod';
import { CCCSEventV1 } from '../events.js';
import { defineOp } from './define.js';
import { ActorDoc } from './documents.js';
import { ActorIdArg, ByArg, GroupIdArg } from './shared.js';

// §8.3 group_start/group_stop and §8.4 actor_start/stop/restart. Until the PTY work lands the
// handlers only record desired state; the wire contract is already the final one.

const GroupLifecycleArgs = z.object({ group_id: GroupIdArg, by: ByArg });

export const group_start = defineOp({
  summary: 'Resume a group and run every actor whose desired enabled state is true.',
  args: GroupLifecycleArgs,
  result: z.object({ group_id: z.string(), started: z.array(z.string()), event: CCCSEventV1 }),
});

/** Group-level suspension: actors keep their desired enabled state. */
export const group_stop = defineOp({
  summary: "Stop a group's actor runtimes without changing desired enabled states.",
  args: GroupLifecycleArgs,
  result: z.object({ group_id: z.string(), stopped: z.array(z.string()), event: CCCSEventV1 }),
});

const ActorLifecycleArgs = z.object({ group_id: GroupIdArg, actor_id: ActorIdArg, by: ByArg });
const ActorLifecycleResult = z.object({ actor: ActorDoc, event: CCCSEventV1 });

export const actor_start = defineOp({
  summary: 'Enable and start one actor (idempotent while its session runs).',
  args: ActorLifecycleArgs,
  result: ActorLifecycleResult,
});

/** Disables the actor: group_start will not start it again until actor_start. */
export const actor_stop = defineOp({
  summary: 'Stop and disable one actor.',
  args: ActorLifecycleArgs,
  result: ActorLifecycleResult,
});

export const actor_restart = defineOp({
  summary: 'Restart one actor, applying its saved runtime configuration.',
  args: ActorLifecycleArgs,
  result: ActorLifecycleResult,
});
