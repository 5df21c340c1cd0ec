import { z } from 'zod';
import { CommandArgv, EnvMap, RuntimeMode, SubmitMode } from './shared.js';
import { ActorStartProblem } from './start-report.js';

// Group and actor documents as ops return them. The spec types these results as
// `Record<string, unknown>`, so every schema is loose: the fields named here are the ones the
// spec or REFERENCE_NOTES §2 guarantees, and anything else (a newer reference field) passes.

/** Group lifecycle state (REFERENCE_NOTES §2). `stopped` is readable but not settable (§8.3). */
export const GroupState = z.enum(['active', 'idle', 'paused', 'stopped']);
export type GroupState = z.infer<typeof GroupState>;

/** Effective role: the first visible actor is the foreman, everyone else a peer (§1.5). */
export const ActorRole = z.enum(['foreman', 'peer']);
export type ActorRole = z.infer<typeof ActorRole>;

/**
 * The actor document (REFERENCE_NOTES §2, `contracts/v1/actor.py::Actor`). `runner` and
 * `runtime_state_source` stay open strings: the spec already adds `headless` and
 * `managed_session` beyond the notes' lists. Private env never appears here.
 */
export const ActorDoc = z.looseObject({
  v: z.number().int().optional(),
  id: z.string().min(1),
  title: z.string().optional(),
  command: CommandArgv.optional(),
  env: EnvMap.optional(),
  default_scope_key: z.string().optional(),
  submit: SubmitMode.optional(),
  capability_autoload: z.array(z.string()).optional(),
  capability_hidden: z.array(z.string()).optional(),
  enabled: z.boolean().optional(),
  runner: z.string().optional(),
  runtime: z.string().optional(),
  runtime_mode: RuntimeMode.optional(),
  runtime_state_source: z.string().optional(),
  internal_kind: z.string().nullish(),
  avatar_asset_path: z.string().optional(),
  profile_id: z.string().optional(),
  profile_scope: z.string().optional(),
  profile_owner: z.string().optional(),
  profile_revision_applied: z.number().int().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type ActorDoc = z.infer<typeof ActorDoc>;

/** actor_list entry: "includes at least id/title/runtime/enabled + role/running" (§8.4). */
export const ActorListEntry = ActorDoc.extend({
  title: z.string(),
  runtime: z.string(),
  enabled: z.boolean(),
  role: ActorRole,
  running: z.boolean(),
  /** Present when `include_unread` was asked for. */
  unread_count: z.number().int().nonnegative().optional(),
  // Working state with provenance (issue 7, REFERENCE_NOTES §4, runtime-state-model.md).
  effective_working_state: z.enum(['stopped', 'idle', 'working', 'waiting', 'stuck']),
  effective_working_reason: z.string(),
  /** When the effective state last changed (RFC3339 UTC). */
  effective_working_updated_at: z.string(),
  busy: z.boolean(),
  /** `waiting_user` holds PTY delivery (the send gate). */
  input_state: z.enum(['ready', 'waiting_user', 'unknown', 'offline']),
  turn_phase: z.enum(['tool_open', 'tool_result_pending_reply', 'user_prompt_pending', 'turn_closed', 'unknown_evidence']),
  /** The PTY child process is alive. */
  cli_alive: z.boolean(),
  /** Which evidence decided the state; terminal heuristics and idle time are labelled fallbacks. */
  // `app_server`: a Codex app-server thread's events; `managed_session`: an ACP session's updates.
  state_source: z.enum(['hook', 'terminal', 'idle', 'process', 'unknown', 'app_server', 'managed_session']),
  // The last start of this daemon, when it had a problem (issue 15): why a not-running actor
  // did not start, or what a running one runs without. Absent after a clean start or a stop.
  start_error: z.string().optional(),
  start_failure: ActorStartProblem.optional(),
  start_warning: ActorStartProblem.optional(),
  // §8.4 Claude resume failure: present only while a failed resume of the saved conversation
  // pauses automatic startup (until an explicit start resumes it or actor_new_session).
  runtime_session_status: z.enum(['resume_failed']).optional(),
  runtime_session_resume_eligible: z.boolean().optional(),
  runtime_session_last_resume_error: z.string().optional(),
});
export type ActorListEntry = z.infer<typeof ActorListEntry>;

export const ScopeEntry = z.looseObject({
  scope_key: z.string(),
  url: z.string(),
  label: z.string().optional(),
  git_remote: z.string().optional(),
});

/** group.yaml content, redacted (§8.3 group_show; field list from REFERENCE_NOTES §2). */
export const GroupDoc = z.looseObject({
  v: z.number().int().optional(),
  group_id: z.string().min(1),
  title: z.string().optional(),
  topic: z.string().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  running: z.boolean().optional(),
  state: GroupState.optional(),
  active_scope_key: z.string().optional(),
  scopes: z.array(ScopeEntry).optional(),
  actors: z.array(ActorDoc).optional(),
});
export type GroupDoc = z.infer<typeof GroupDoc>;

/** groups entry: "includes at least group_id/title/created_at/updated_at + running/state". */
export const GroupSummary = z.looseObject({
  group_id: z.string().min(1),
  title: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  running: z.boolean(),
  state: GroupState,
});
export type GroupSummary = z.infer<typeof GroupSummary>;
