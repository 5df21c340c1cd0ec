import { z } from 'zod';

/**
 * `x.cccc.actor_start_problem` (vendor kind, by `system`): an actor start that did not run
 * (`running: false`: executable not found, exited within the early-exit window, launch error) or
 * runs with a caveat (`running: true`: e.g. a failed version probe, so it runs without hooks).
 * Appended once per start attempt that had a problem, after the lifecycle event of that start.
 * The agent's output is deliberately not recorded here (it may carry secrets; the ledger is
 * shared and long-lived): `output_tail` lives only in op results and `actor_list`.
 */
export const ACTOR_START_PROBLEM_KIND = 'x.cccc.actor_start_problem';

export const ActorStartProblemData = z.looseObject({
  actor_id: z.string().min(1),
  running: z.boolean(),
  code: z.string().min(1),
  message: z.string(),
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable(),
  /** What asked for the start: group_start, actor_start, actor_add, actor_restart, daemon_start, wake, ... */
  trigger: z.string().min(1),
});
export type ActorStartProblemData = z.infer<typeof ActorStartProblemData>;
