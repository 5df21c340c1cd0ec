import { z } from 'zod';
import { defineOp } from './define.js';
import { ActorIdArg, GroupIdArg } from './shared.js';

// Extensions (issue 7): provider hook events handed to the daemon, the single writer of hook
// state and runtime activity; and the runtime activity snapshot.

const Id = z.string().min(1).max(256);

/**
 * The part of a provider hook payload that may leave the agent's machine boundary: identities
 * and labels only. Prompts, commands, tool inputs/outputs and notification text are not fields
 * here, so a client cannot send them (strict object).
 *
 * The one payload schema: hook-fence reads provider payloads against it (loosely, narrowed to
 * the events its fence knows) and `cccc hook`'s dependency-free field pick is held to it by a
 * property test. It lives here because this is the bottom layer: hook-fence may build on it, but
 * this package must not import hook-fence.
 */
export const RuntimeHookPayload = z.strictObject({
  hook_event_name: z.string().min(1).max(64),
  session_id: Id,
  turn_id: Id.optional(),
  prompt_id: Id.optional(),
  tool_use_id: Id.optional(),
  tool_name: z.string().max(256).optional(),
  notification_type: z.string().max(64).optional(),
  agent_id: Id.optional(),
  /**
   * UserPromptSubmit only: a digest of each distinct line of the prompt (`prompt-marks.ts`), so
   * the daemon can tell which typed submits the prompt took in. Never the text; read, not stored.
   */
  // The pattern and bound of `prompt-marks.ts` (not imported: that module stays out of the chunk
  // this one shares with the node entry, so `cccc hook` bundles it without zod; a test holds them equal).
  prompt_marks: z.array(z.string().regex(/^[0-9a-f]{16}$/)).max(1024).optional(),
});
export type RuntimeHookPayload = z.infer<typeof RuntimeHookPayload>;

/** The keys `cccc hook` copies out of a raw payload before sending it (`prompt_marks` it derives). */
export const RUNTIME_HOOK_PAYLOAD_KEYS = (Object.keys(RuntimeHookPayload.shape) as (keyof RuntimeHookPayload)[]).filter(
  (k): k is Exclude<keyof RuntimeHookPayload, 'prompt_marks'> => k !== 'prompt_marks',
);

/** One display revision of the runtime activity channel (seed `pty-runtime-activity.md`). */
export const RuntimeActivityRecord = z.strictObject({
  v: z.literal(1),
  id: z.string().min(1),
  ts: z.string().min(1),
  group_id: z.string().min(1),
  actor_id: z.string().min(1),
  runtime: z.enum(['claude', 'codex']),
  activity_id: z.string().min(1),
  kind: z.enum(['session', 'turn', 'tool', 'subagent']),
  status: z.enum(['started', 'waiting', 'completed', 'failed', 'stuck']),
  event_type: z.string().min(1),
  session_id: z.string().nullable(),
  turn_id: z.string().nullable(),
  operation_id: z.string().nullable(),
  tool_name: z.string().max(64).regex(/^[A-Za-z0-9_.:/-]*$/).nullable(),
  duration_ms: z.number().int().nonnegative().nullable(),
});
export type RuntimeActivityRecord = z.infer<typeof RuntimeActivityRecord>;

export const runtime_hook_event = defineOp({
  summary: 'Hand one fenced provider hook event (claude/codex) to the daemon; stale or forged events are rejected.',
  args: () => z.object({
    group_id: GroupIdArg,
    actor_id: ActorIdArg,
    runtime: z.enum(['claude', 'codex']),
    launch_token: z.string().min(1).max(128),
    payload: RuntimeHookPayload,
    /**
     * When the agent ran this hook: the hook process's start, in ms since the epoch. It times a
     * prompt hook apart from the hook's own start-up and transport (delivery confirmation).
     */
    fired_at_ms: z.number().int().nonnegative().optional(),
  }),
  result: () => z.object({ accepted: z.boolean(), reason: z.string().optional() }),
});

/** A corrupt store answers `runtime_activity_unavailable`, never a partial snapshot. */
export const runtime_activity_snapshot = defineOp({
  summary: 'Active runtime activity records of a group plus completions of the last 15 s.',
  args: () => z.object({ group_id: GroupIdArg }),
  result: () => z.object({ events: z.array(RuntimeActivityRecord) }),
});

/**
 * runtime_activity_stream (extension, issue 7): NDJSON items `{t: "runtime-activity", event}`
 * with heartbeats. `replay` (default true) first sends the current snapshot records, then every
 * new display revision; `replay: false` sends only revisions committed after the attach. A
 * corrupt store does not end the stream: it keeps its last accepted view and resumes once the
 * store is valid again.
 */
export const runtime_activity_stream = defineOp({
  summary: 'Upgrade to a push stream of runtime activity revisions of one group.',
  upgrade: 'ndjson_stream',
  args: () => z.object({ group_id: GroupIdArg, replay: z.boolean().optional() }),
  result: () => z.object({ group_id: z.string(), replay: z.boolean() }),
});

/** One item of a runtime_activity_stream. */
export const RuntimeActivityStreamItem = z.object({ t: z.literal('runtime-activity'), event: RuntimeActivityRecord });
export type RuntimeActivityStreamItem = z.infer<typeof RuntimeActivityStreamItem>;
