import { z } from 'zod';
import { defineOp } from './define.js';
import { ByArg, GroupIdArg, InsightArg, LooseBooleanArg, ReferenceV1, TaskRefV1, eventOfKind } from './shared.js';

// §8.8 Context and Tasks, and §8.6 tracked_send. Task objects and op items stay open records:
// the spec fixes their minimum (task_type on every task, `op` on every item), not their closure.

const Rec = z.record(z.string(), z.unknown());
const TaskObject = z.looseObject({ id: z.string(), task_type: z.string() });
const TaskStatus = z.enum(['planned', 'active', 'done', 'archived']);
const Note = z.looseObject({ at: z.string(), by: z.string(), summary: z.string(), task_id: z.string().nullish() });
const CountOrList = z.union([z.number().int().nonnegative(), z.array(Rec)]);

export const ContextBrief = z.looseObject({
  objective: z.string(),
  current_focus: z.string(),
  constraints: z.array(z.string()),
  project_brief: z.string(),
  project_brief_stale: z.boolean(),
  updated_by: z.string(),
  updated_at: z.string(),
});

export const AgentStateV1 = z.looseObject({
  id: z.string(),
  hot: z.looseObject({
    active_task_id: z.string().nullish(),
    focus: z.string().nullish(),
    blockers: z.array(z.string()).optional(),
    next_action: z.string().nullish(),
  }),
  warm: z.looseObject({
    what_changed: z.string().nullish(),
    open_loops: z.array(z.string()).optional(),
    commitments: z.array(z.string()).optional(),
    environment_summary: z.string().nullish(),
    user_model: z.string().nullish(),
    persona_notes: z.string().nullish(),
  }),
  updated_at: z.string().nullish(),
});

export const context_get = defineOp({
  summary: 'The group context: brief, tasks, agent states and computed attention/board, at a detail level.',
  args: () => z.object({ group_id: GroupIdArg, detail: z.enum(['overview', 'summary', 'full']).optional() }),
  result: () => z.object({
    version: z.string(),
    tasks_version: z.string(),
    coordination: z.looseObject({
      brief: ContextBrief,
      tasks: z.array(TaskObject).optional(),
      recent_decisions: z.array(Note).optional(),
      recent_handoffs: z.array(Note).optional(),
    }),
    agent_states: z.array(AgentStateV1),
    actors_runtime: z.array(Rec).optional(),
    tasks_summary: z
      .object({
        total: z.number().int(),
        done: z.number().int(),
        active: z.number().int(),
        planned: z.number().int(),
        archived: z.number().int(),
        root_count: z.number().int().optional(),
      })
      .optional(),
    attention: z.object({ blocked: CountOrList.optional(), waiting_user: CountOrList.optional(), pending_handoffs: CountOrList.optional() }).optional(),
    board: z.object(Object.fromEntries(TaskStatus.options.map((s) => [s, z.array(TaskObject).optional()]))).optional(),
    meta: Rec.optional(),
  }),
});

/** Op items are validated by the context lib (each v3 op has its own fields and answer). */
export const ContextOpV1 = z.looseObject({ op: z.string() });

export const context_sync = defineOp({
  summary: 'Apply a batch of Context v3 ops in order, all or nothing.',
  args: () => z.object({
    group_id: GroupIdArg,
    by: ByArg,
    ops: z.array(ContextOpV1),
    dry_run: LooseBooleanArg.optional(),
    if_version: z.string().optional(),
  }),
  result: () => z.object({
    success: z.literal(true),
    dry_run: z.boolean(),
    changes: z.array(Rec),
    version: z.string(),
    space_sync: Rec.optional(),
  }),
});

const Facets = z.object({
  status_counts: z.record(z.string(), z.number().int()),
  blocked: z.number().int(),
  waiting_user: z.number().int(),
  pending_handoffs: z.number().int(),
  unassigned: z.number().int(),
  assignees: z.array(z.string()),
});
const PageFields = {
  tasks: z.array(TaskObject),
  count: z.number().int(),
  total_count: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  has_more: z.boolean(),
};
const TaskIndexRow = z.object({
  id: z.string(),
  title: z.string(),
  status: z.string(),
  assignee: z.string().nullish(),
  parent_id: z.string().nullish(),
});

export const TaskListExact = z.object({
  task: TaskObject.extend({ children: z.array(TaskObject) }),
  tasks_version: z.string(),
  delete_info: z.object({ allowed: z.boolean(), total: z.number().int(), reason: z.string() }),
});
export const TaskListBatch = z.object({ tasks: z.array(TaskObject), tasks_version: z.string() });
export const TaskListPaged = z.object({ ...PageFields, tasks_version: z.string(), facets: Facets, task_index: z.array(TaskIndexRow).optional() });
export const TaskListColumns = z.object({
  pages: z.partialRecord(TaskStatus, z.object(PageFields)),
  tasks_version: z.string(),
  facets: Facets,
  task_index: z.array(TaskIndexRow).optional(),
});
export const TaskListCompat = z.object({ tasks: z.array(TaskObject), task_index: z.array(TaskIndexRow).optional() });

/** Which shape answers is decided by the args (task_id, task_ids, statuses, limit, none). */
export const task_list = defineOp({
  summary: 'Tasks by exact id, by id batch, as a filtered page with facets, as atomic status columns, or all.',
  args: () => z.object({
    group_id: GroupIdArg,
    task_id: z.string().optional(),
    task_ids: z.string().optional(),
    status: TaskStatus.optional(),
    statuses: z.string().optional(),
    query: z.string().optional(),
    assignee: z.string().optional(),
    attention: z.enum(['blocked', 'waiting_user', 'handoff', 'unassigned']).optional(),
    offset: z.number().int().nonnegative().optional(),
    limit: z.number().int().min(1).max(100).optional(),
    include_index: z.boolean().optional(),
  }),
  result: () => z.union([TaskListExact, TaskListColumns, TaskListPaged, TaskListBatch, TaskListCompat]),
});

const ChecklistItemArg = z.object({ text: z.string(), status: z.string().optional() });

/** A delegation is Send-only: the delivery selectors of old clients are refused, not ignored. */
export const trackedSendRejected = {
  keys: ['priority', 'message_priority', 'reply_required'],
  code: 'unsupported_message_fields',
} as const;

export const tracked_send = defineOp({
  summary: 'Create a durable task and send one linked visible delegation message carrying its task_ref.',
  rejectedArgs: trackedSendRejected,
  args: () => z.object({
    group_id: GroupIdArg,
    title: z.string().trim().min(1),
    text: z.string(),
    by: ByArg,
    to: z.array(z.string()).optional(),
    outcome: z.string().optional(),
    checklist: z.array(ChecklistItemArg).optional(),
    task_priority: z.string().optional(),
    assignee: z.string().optional(),
    waiting_on: z.enum(['none', 'user', 'actor', 'external']).optional(),
    handoff_to: z.string().optional(),
    notes: z.string().optional(),
    idempotency_key: z.string().min(1).optional(),
    refs: z.array(ReferenceV1).optional(),
    insight: InsightArg,
    require_peer_insight: z.boolean().optional(),
  }),
  result: () => z.object({
    task_id: z.string(),
    task_ref: TaskRefV1,
    event: eventOfKind('chat.message').optional(),
    event_id: z.string().optional(),
    message_mode: z.literal('send').optional(),
    task_created: z.boolean(),
    message_sent: z.boolean(),
    partial_failure: z.boolean(),
    replayed: z.boolean().optional(),
    error: z.object({ code: z.string(), message: z.string(), details: Rec }).optional(),
  }),
});
