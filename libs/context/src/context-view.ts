import type { OpArgs, OpResult } from '@cccc/ipc-protocol';
import { attentionCounts, attentionDetail } from './attention.js';
import { TASK_STATUSES, emptyAgentState, type AgentState, type ContextHead, type ContextState, type Task, type TaskStatus } from './model.js';
import { byIdAsc, columnOrder } from './task-order.js';
import { taskView, type TaskView } from './task-view.js';

export type ContextDetail = NonNullable<OpArgs<'context_get'>['detail']>;

// Each view keeps its own precise type for callers and `satisfies` the catalog's result.
type ContextGetResult = OpResult<'context_get'>;

/**
 * Agent states for every actor of the group, in roster order, whether or not it has written one;
 * states of actors no longer in the group are not shown.
 */
export function agentStatesFor(head: ContextHead, actorIds: readonly string[] | undefined): AgentState[] {
  if (!actorIds) return head.agents;
  const stored = new Map(head.agents.map((a) => [a.id, a]));
  return actorIds.map((id) => stored.get(id) ?? emptyAgentState(id));
}

function tasksSummary(tasks: ReadonlyMap<string, Task>) {
  const counts = { total: tasks.size, done: 0, active: 0, planned: 0, archived: 0, root_count: 0 };
  for (const t of tasks.values()) {
    counts[t.status]++;
    if (!t.parent_id) counts.root_count++;
  }
  return counts;
}

function board(sorted: Task[]) {
  const out: Partial<Record<TaskStatus, TaskView[]>> = {};
  for (const status of TASK_STATUSES) {
    out[status] = sorted.filter((t) => t.status === status).sort(columnOrder(status)).map(taskView);
  }
  return out;
}

/** `context_get` overview: the head only, so it can be served without reading task files. */
export function overviewView(head: ContextHead, actorIds?: readonly string[]) {
  return {
    version: head.version,
    tasks_version: head.tasks_version,
    coordination: {
      brief: head.coordination.brief,
      recent_decisions: head.coordination.recent_decisions,
      recent_handoffs: head.coordination.recent_handoffs,
    },
    agent_states: agentStatesFor(head, actorIds),
    meta: head.meta,
  } satisfies ContextGetResult;
}

/** `context_get` summary / full (§8.8). Tasks are in id order; every editor field is kept. */
export function contextView(state: ContextState, detail: 'summary' | 'full', actorIds?: readonly string[]) {
  const sorted = [...state.tasks.values()].sort(byIdAsc);
  const tasks = sorted.map(taskView);
  const common = {
    version: state.version,
    tasks_version: state.tasks_version,
    agent_states: agentStatesFor(state, actorIds),
    tasks_summary: tasksSummary(state.tasks),
    meta: state.meta,
  };
  if (detail === 'summary') {
    return { ...common, coordination: { brief: state.coordination.brief, tasks }, attention: attentionCounts(state.tasks) } satisfies ContextGetResult;
  }
  return {
    ...common,
    coordination: {
      brief: state.coordination.brief,
      tasks,
      recent_decisions: state.coordination.recent_decisions,
      recent_handoffs: state.coordination.recent_handoffs,
    },
    attention: attentionDetail(state.tasks),
    board: board(sorted),
  } satisfies ContextGetResult;
}
