import type { ContextBrief } from '@cccc/ipc-protocol';
import type { z } from 'zod';

// The in-memory shape of one group's context (CONTEXT_OPS_NOTES "Model"). Plain data only, so
// the pure core can copy, compare and serialise it without knowing about files.
//
// The wire schemas of ipc-protocol keep tasks, notes and agent states open and mostly optional
// (the spec fixes their minimum); the model is stricter (every field present), so these are type
// aliases, never interfaces: an alias is assignable to the catalog's open records, and the views
// are checked against the catalog result types. Where the wire and the model agree exactly (the
// brief), the type is inferred from the wire schema.

export const TASK_STATUSES = ['planned', 'active', 'done', 'archived'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const WAITING_ON = ['none', 'user', 'actor', 'external'] as const;
export type WaitingOn = (typeof WAITING_ON)[number];
export const TASK_TYPES = ['free', 'standard', 'optimization'] as const;
export type TaskType = (typeof TASK_TYPES)[number];
export const CHECKLIST_STATUSES = ['pending', 'in_progress', 'done'] as const;
export type ChecklistStatus = (typeof CHECKLIST_STATUSES)[number];

export type ChecklistItem = {
  id: string;
  text: string;
  status: ChecklistStatus;
};

/** Every task-editor field is always present, so a summary refresh carries the whole draft. */
export type Task = {
  id: string;
  title: string;
  outcome: string;
  status: TaskStatus;
  parent_id: string | null;
  assignee: string | null;
  priority: string | null;
  blocked_by: string[];
  waiting_on: WaitingOn;
  handoff_to: string | null;
  task_type: TaskType;
  notes: string;
  checklist: ChecklistItem[];
  created_by: string;
  created_at: string;
  updated_at: string;
  /** Set on the first move to active or done: the task then has execution history. */
  started_at: string | null;
  /** The status a task had when archived; restore returns it there. */
  archived_from: TaskStatus | null;
  /** Set only by tracked_send, so a retried request finds its original task. */
  idempotency_key?: string;
};

/** The wire's `ContextBrief`, closed: exactly its fields (the wire record also lets others through). */
export type Brief = z.output<z.ZodObject<(typeof ContextBrief)['shape']>>;

export type CoordinationNote = {
  at: string;
  by: string;
  summary: string;
  task_id: string | null;
};

export type Coordination = {
  brief: Brief;
  recent_decisions: CoordinationNote[];
  recent_handoffs: CoordinationNote[];
};

export type HotState = {
  active_task_id: string | null;
  focus: string | null;
  blockers: string[];
  next_action: string | null;
};

export type WarmState = {
  what_changed: string | null;
  open_loops: string[];
  commitments: string[];
  environment_summary: string | null;
  user_model: string | null;
  persona_notes: string | null;
};

export type AgentState = {
  id: string;
  hot: HotState;
  warm: WarmState;
  updated_at: string | null;
};

export type ContextMeta = {
  project_status?: string;
};

/** The head: everything but the task files (what `overview` reads). */
export type ContextHead = {
  version: string;
  tasks_version: string;
  coordination: Coordination;
  agents: AgentState[];
  meta: ContextMeta;
};

export type ContextState = ContextHead & {
  /** Keyed by task id; iteration order is not meaningful. */
  tasks: Map<string, Task>;
};

/** Only the newest notes of each kind are kept (bounded working memory, not an archive). */
export const RECENT_NOTES_LIMIT = 50;

export function emptyBrief(): Brief {
  return {
    objective: '',
    current_focus: '',
    constraints: [],
    project_brief: '',
    project_brief_stale: false,
    updated_by: '',
    updated_at: '',
  };
}

export function emptyAgentState(id: string): AgentState {
  return {
    id,
    hot: { active_task_id: null, focus: null, blockers: [], next_action: null },
    warm: {
      what_changed: null,
      open_loops: [],
      commitments: [],
      environment_summary: null,
      user_model: null,
      persona_notes: null,
    },
    updated_at: null,
  };
}

export function emptyContext(): ContextState {
  return {
    version: '0',
    tasks_version: '0',
    coordination: { brief: emptyBrief(), recent_decisions: [], recent_handoffs: [] },
    agents: [],
    meta: {},
    tasks: new Map(),
  };
}

export const isOpen = (t: Task) => t.status === 'planned' || t.status === 'active';
