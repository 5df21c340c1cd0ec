import { z } from 'zod';

/** Seen-id history cap per fence; reaching it fails the fence closed. */
export const FENCE_HISTORY_CAP = 4096;

export const HOOK_STATUSES = ['stopped', 'idle', 'working', 'waiting'] as const;
export type HookStatus = (typeof HOOK_STATUSES)[number];

const nullableId = z.string().nullable();

/** The v3 hook-state record. Key order here is the wire order of the golden fixture. */
export const hookStateSchema = z.strictObject({
  v: z.literal(3),
  runtime: z.enum(['claude', 'codex']),
  group_id: z.string().min(1),
  actor_id: z.string().min(1),
  status: z.enum(HOOK_STATUSES),
  event: z.string().nullable(),
  session_id: nullableId,
  turn_id: nullableId,
  operation_id: nullableId,
  interrupted: z.boolean(),
  awaiting_session_start: z.boolean(),
  turn_generation: z.number().int().nonnegative(),
  launch_token: z.string().min(1),
  seen_turn_ids: z.array(z.string()).max(FENCE_HISTORY_CAP),
  seen_operation_ids: z.array(z.string()).max(FENCE_HISTORY_CAP),
  turn_fence_exhausted: z.boolean(),
  operation_fence_exhausted: z.boolean(),
  diagnostic: z.string().nullable(),
  session_closed: z.boolean(),
  observation: z.enum(['full_fidelity', 'pty_fail_closed']),
  updated_at: z.string().min(1),
});
export type HookState = z.infer<typeof hookStateSchema>;

const KEY_ORDER = Object.keys(hookStateSchema.shape) as (keyof HookState)[];

/** Decode a stored record; an over-cap history or any unknown key is rejected, not trimmed. */
export function decodeHookState(input: unknown): { value: HookState } | { error: string } {
  const parsed = hookStateSchema.safeParse(input);
  if (parsed.success) return { value: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { error: `${issue.path.join('.') || '(root)'}: ${issue.message}` };
}

/** Encode with every key present (nulls kept) in the fixed wire order. */
export function encodeHookState(state: HookState): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of KEY_ORDER) out[key] = state[key];
  return out;
}

export interface PendingStateInput {
  runtime: 'claude' | 'codex';
  groupId: string;
  actorId: string;
  launchToken: string;
  now: string;
}

/** The state written before spawn: waiting for the fenced SessionStart of this launch. */
export function pendingHookState(input: PendingStateInput): HookState {
  return {
    v: 3,
    runtime: input.runtime,
    group_id: input.groupId,
    actor_id: input.actorId,
    status: 'waiting',
    event: null,
    session_id: null,
    turn_id: null,
    operation_id: null,
    interrupted: false,
    awaiting_session_start: true,
    turn_generation: 0,
    launch_token: input.launchToken,
    seen_turn_ids: [],
    seen_operation_ids: [],
    turn_fence_exhausted: false,
    operation_fence_exhausted: false,
    diagnostic: null,
    session_closed: false,
    observation: 'full_fidelity',
    updated_at: input.now,
  };
}
