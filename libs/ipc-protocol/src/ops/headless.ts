import { z } from 'zod';
import { defineOp } from './define.js';
import { ActorIdArg, ByArg, GroupIdArg } from './shared.js';

// §8.9 Structured Runtime State: the managed session of an actor (Codex through its
// app-server), read and steered by generation. Reads never create a session.

/** One provider request waiting on a person, under an opaque CCCC token bound to its turn. */
export const HeadlessPermission = z.looseObject({
  request_id: z.string(),
  turn_id: z.string().nullable(),
  kind: z.string(),
  summary: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type HeadlessPermission = z.infer<typeof HeadlessPermission>;

/** The actual managed session's control state. */
export const HeadlessControlState = z.looseObject({
  generation: z.string(),
  runtime: z.string(),
  runtime_mode: z.string(),
  runner: z.string(),
  running: z.boolean(),
  working: z.boolean(),
  permissions: z.array(HeadlessPermission),
});
export type HeadlessControlState = z.infer<typeof HeadlessControlState>;

export const headless_status = defineOp({
  summary: "A managed actor's structured runtime state (session, turn, permissions, status).",
  args: () => z.object({ group_id: GroupIdArg, actor_id: ActorIdArg }),
  result: () => z.object({ state: z.record(z.string(), z.unknown()) }),
});

export const HeadlessStatusValue = z.enum(['idle', 'working', 'waiting', 'stopped']);

export const headless_set_status = defineOp({
  summary: "Record a managed actor's self-reported status (and task) beside the session's own state.",
  args: () => z.object({ group_id: GroupIdArg, actor_id: ActorIdArg, status: HeadlessStatusValue, task_id: z.string().nullish() }),
  result: () => z.object({ state: z.record(z.string(), z.unknown()).nullable() }),
});

export const headless_control_state = defineOp({
  summary: "The control state of an actor's running managed session (null when there is none).",
  args: () => z.object({ group_id: GroupIdArg, actor_id: ActorIdArg }),
  result: () => z.object({ state: HeadlessControlState.nullable() }),
});

/**
 * `{ action: "permission", request_id, allow }`, `{ action: "interaction", request_id, response }`
 * or `{ action: "cancel" }`; which fields each action needs is checked by the handler.
 */
export const HeadlessControlAction = z.enum(['permission', 'interaction', 'cancel']);

export const headless_control = defineOp({
  summary: "A person's decision for the exact managed session generation: permission, interaction, or cancel.",
  args: () => z.object({
    group_id: GroupIdArg,
    actor_id: ActorIdArg,
    by: ByArg,
    generation: z.string().min(1),
    action: HeadlessControlAction,
    request_id: z.string().min(1).optional(),
    allow: z.boolean().optional(),
    response: z.unknown().optional(),
  }),
  result: () => z.object({ ok: z.literal(true), state: HeadlessControlState.nullable() }),
});
