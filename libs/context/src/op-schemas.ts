import { z } from 'zod';
import { CHECKLIST_STATUSES, TASK_STATUSES, TASK_TYPES, WAITING_ON } from './model.js';

// One schema per v3 op (CONTEXT_OPS_NOTES "Operations"). Unknown fields are stripped, as the
// notes allow; a field of the wrong type rejects the op (and so the batch).

const Text = z.string();
const OptionalId = z.string().trim().min(1).nullable().optional();

const ChecklistInput = z.array(
  z.object({ id: z.string().min(1).optional(), text: z.string().trim().min(1), status: z.enum(CHECKLIST_STATUSES).optional() }),
);

/** The editable task fields shared by create (all optional but title) and update (a patch). */
const taskFields = {
  outcome: Text.optional(),
  parent_id: OptionalId,
  assignee: OptionalId,
  priority: z.string().nullable().optional(),
  blocked_by: z.array(z.string().min(1)).optional(),
  waiting_on: z.enum(WAITING_ON).optional(),
  handoff_to: OptionalId,
  task_type: z.enum(TASK_TYPES).optional(),
  notes: Text.optional(),
  checklist: ChecklistInput.optional(),
};

const TaskIdField = z.string().trim().min(1);

const hotFields = {
  active_task_id: z.string().nullable().optional(),
  focus: z.string().nullable().optional(),
  blockers: z.array(z.string()).optional(),
  next_action: z.string().nullable().optional(),
};
const warmFields = {
  what_changed: z.string().nullable().optional(),
  open_loops: z.array(z.string()).optional(),
  commitments: z.array(z.string()).optional(),
  environment_summary: z.string().nullable().optional(),
  user_model: z.string().nullable().optional(),
  persona_notes: z.string().nullable().optional(),
};

export const opSchemas = {
  'coordination.brief.update': z.object({
    objective: Text.optional(),
    current_focus: Text.optional(),
    constraints: z.array(z.string()).optional(),
    project_brief: Text.optional(),
    project_brief_stale: z.boolean().optional(),
  }),
  'coordination.note.add': z.object({
    kind: z.enum(['decision', 'handoff']),
    summary: z.string().trim().min(1),
    task_id: OptionalId,
  }),
  'task.create': z.object({ title: z.string().trim().min(1), status: z.enum(['planned', 'active', 'done']).optional(), ...taskFields }),
  'task.update': z.object({ task_id: TaskIdField, title: z.string().trim().min(1).optional(), ...taskFields }),
  'task.move': z.object({ task_id: TaskIdField, status: z.enum(TASK_STATUSES) }),
  'task.restore': z.object({ task_id: TaskIdField }),
  'task.delete': z.object({ task_id: TaskIdField }),
  'agent_state.update': z.object({
    actor_id: z.string().trim().min(1),
    hot: z.object(hotFields).optional(),
    warm: z.object(warmFields).optional(),
    ...hotFields,
    ...warmFields,
  }),
  'agent_state.clear': z.object({ actor_id: z.string().trim().min(1) }),
  'meta.merge': z.object({ data: z.strictObject({ project_status: z.string() }) }),
} as const;

export type OpName = keyof typeof opSchemas;
export const OP_NAMES = Object.keys(opSchemas) as OpName[];
export type ParsedOp<K extends OpName = OpName> = { [N in K]: { op: N } & z.output<(typeof opSchemas)[N]> }[K];

export function isOpName(name: unknown): name is OpName {
  return typeof name === 'string' && Object.hasOwn(opSchemas, name);
}

/**
 * Legacy agent_state spellings (CONTEXT_OPS_NOTES): `agent_id` for `actor_id`, `environment`
 * for `environment_summary`, `user_profile` for `user_model`, `notes` for `persona_notes`.
 * The canonical key wins when both are given.
 */
export function withLegacyAliases(raw: Record<string, unknown>): Record<string, unknown> {
  if (raw['op'] !== 'agent_state.update' && raw['op'] !== 'agent_state.clear') return raw;
  const out = { ...raw };
  const alias = (from: string, to: string) => {
    if (out[to] === undefined && out[from] !== undefined) out[to] = out[from];
    delete out[from];
  };
  alias('agent_id', 'actor_id');
  alias('environment', 'environment_summary');
  alias('user_profile', 'user_model');
  alias('notes', 'persona_notes');
  return out;
}
