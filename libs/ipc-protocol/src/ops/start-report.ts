import { z } from 'zod';

/**
 * What went wrong when an actor was started (or what it runs without). `code` is an open set:
 * `executable_not_found`, `exited_early` (exited within the early-exit window after spawn),
 * `spawn_failed`, `version_probe_failed` (`claude --version` failed or timed out),
 * `hook_probe_failed` (the codex hook pre-probe failed), or a launch error code such as
 * `missing_project_root` / `scope_not_attached` / `daemon_stopping`.
 */
export const ActorStartProblem = z.object({
  code: z.string().min(1),
  /** One line for a person. */
  message: z.string(),
  /** `exited_early` and failed probes: the exit code, or null when a signal ended it. */
  exit_code: z.number().int().nullable().optional(),
  /** Signal name (`SIGKILL`, ...) when a signal ended it, else null. */
  signal: z.string().nullable().optional(),
  /** Last lines the process printed (terminal text, ANSI stripped), oldest first. */
  output_tail: z.array(z.string()).optional(),
});
export type ActorStartProblem = z.infer<typeof ActorStartProblem>;

/**
 * One actor's start as it really went. `running: false` comes with `start_error` (the one-line
 * string the reference's `actor_add` returns) and the structured `start_failure`; a start that
 * runs with a caveat (e.g. a failed version probe, so no hooks) has `start_warning`.
 */
export const ActorStartResult = z.object({
  actor_id: z.string(),
  running: z.boolean(),
  start_error: z.string().optional(),
  start_failure: ActorStartProblem.optional(),
  start_warning: ActorStartProblem.optional(),
});
export type ActorStartResult = z.infer<typeof ActorStartResult>;
