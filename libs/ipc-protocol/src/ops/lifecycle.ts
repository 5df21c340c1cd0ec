import { z } from 'zod';
import { CCCSEventV1 } from '../events.js';
import { defineOp } from './define.js';
import { ActorDoc } from './documents.js';
import { ActorIdArg, ByArg, GroupIdArg } from './shared.js';
import { ActorStartProblem, ActorStartResult } from './start-report.js';

// §8.3 group_start/group_stop and §8.4 actor_start/stop/restart: the spec's fields, plus what
// each start really did (issue 15, "honest starts"), in added fields only.

const GroupLifecycleArgs = z.object({ group_id: GroupIdArg, by: ByArg });

export const group_start = defineOp({
  summary: 'Resume a group and run every actor whose desired enabled state is true.',
  args: () => GroupLifecycleArgs,
  result: () => z.object({
    group_id: z.string(),
    /** The enabled actors group_start set out to run (as in the `group.start` event). */
    started: z.array(z.string()),
    event: CCCSEventV1,
    // Optional so a client still reads the reference daemon's results, which lack them.
    /** Per actor of `started`, in that order: running or not, and why. */
    start_results: z.array(ActorStartResult).optional(),
    /** Actors of `started` that are not running after the early-exit window. */
    failed: z.array(z.string()).optional(),
  }),
});

/** Group-level suspension: actors keep their desired enabled state. */
export const group_stop = defineOp({
  summary: "Stop a group's actor runtimes without changing desired enabled states.",
  args: () => GroupLifecycleArgs,
  result: () => z.object({ group_id: z.string(), stopped: z.array(z.string()), event: CCCSEventV1 }),
});

const ActorLifecycleArgs = z.object({ group_id: GroupIdArg, actor_id: ActorIdArg, by: ByArg });
const ActorLifecycleResult = z.object({ actor: ActorDoc, event: CCCSEventV1 });
/**
 * A start that did not run is an error (`runtime_start_failed`, `details.start_failure`), as
 * before; a result means it runs (`running: true`), possibly with a `start_warning`. A restart of
 * a disabled actor answers `running: false`.
 */
const ActorStartingResult = ActorLifecycleResult.extend({ running: z.boolean().optional(), start_warning: ActorStartProblem.optional() });

export const actor_start = defineOp({
  summary: 'Enable and start one actor (idempotent while its session runs).',
  args: () => ActorLifecycleArgs,
  result: () => ActorStartingResult,
});

/** Disables the actor: group_start will not start it again until actor_start. */
export const actor_stop = defineOp({
  summary: 'Stop and disable one actor.',
  args: () => ActorLifecycleArgs,
  result: () => ActorLifecycleResult,
});

export const actor_restart = defineOp({
  summary: 'Restart one actor, applying its saved runtime configuration.',
  args: () => ActorLifecycleArgs,
  result: () => ActorStartingResult,
});
