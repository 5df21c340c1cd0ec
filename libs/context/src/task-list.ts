import type { OpArgs, OpResult } from '@cccc/ipc-protocol';
import { isBlocked, isPendingHandoff, isUnassigned, isWaitingUser, matchesAttention } from './attention.js';
import { ContextErrorCodes, contextError } from './errors.js';
import { TASK_STATUSES, type ContextState, type Task, type TaskStatus } from './model.js';
import { childrenOf, deleteInfo } from './task-tree.js';
import { byIdAsc, columnOrder } from './task-order.js';
import { taskIndexRow, taskView } from './task-view.js';

/** The catalog's `task_list` arguments; the group is the caller's business. */
export type TaskListArgs = Omit<OpArgs<'task_list'>, 'group_id'>;

export const MAX_BATCH_IDS = 100;
export const MAX_PAGE = 100;
/** Column size of a `statuses` request that gives no `limit` (the spec leaves it open). */
export const DEFAULT_COLUMN_PAGE = 50;
export const UNASSIGNED = '__unassigned__';

const bad = (field: string, message: string) => contextError(ContextErrorCodes.invalidRequest, message, { field });

const splitIds = (s: string) => [...new Set(s.split(',').map((x) => x.trim()).filter(Boolean))];

function filtersOf(args: TaskListArgs, tasks: ReadonlyMap<string, Task>): (t: Task) => boolean {
  const q = args.query?.trim().toLowerCase();
  return (t) => {
    if (args.assignee !== undefined) {
      if (args.assignee === UNASSIGNED ? t.assignee !== null : t.assignee !== args.assignee) return false;
    }
    if (args.attention && !matchesAttention(args.attention, t, tasks)) return false;
    if (q && ![t.id, t.title, t.outcome, t.notes].some((f) => f.toLowerCase().includes(q))) return false;
    return true;
  };
}

/**
 * Facets describe the whole snapshot (not the filtered page), so column counts and filter
 * chips stay stable while a user narrows the list.
 */
function facetsOf(tasks: ReadonlyMap<string, Task>) {
  const status_counts: Record<string, number> = { planned: 0, active: 0, done: 0, archived: 0 };
  let blocked = 0;
  let waiting_user = 0;
  let pending_handoffs = 0;
  let unassigned = 0;
  const assignees = new Set<string>();
  for (const t of tasks.values()) {
    status_counts[t.status] = (status_counts[t.status] ?? 0) + 1;
    if (isBlocked(t, tasks)) blocked++;
    if (isWaitingUser(t)) waiting_user++;
    if (isPendingHandoff(t)) pending_handoffs++;
    if (isUnassigned(t)) unassigned++;
    if (t.assignee) assignees.add(t.assignee);
  }
  return { status_counts, blocked, waiting_user, pending_handoffs, unassigned, assignees: [...assignees].sort() };
}

function page(rows: Task[], offset: number, limit: number) {
  const slice = rows.slice(offset, offset + limit).map(taskView);
  return { tasks: slice, count: slice.length, total_count: rows.length, offset, limit, has_more: offset + slice.length < rows.length };
}

const indexOf = (tasks: ReadonlyMap<string, Task>) => [...tasks.values()].filter((t) => t.status !== 'archived').sort(byIdAsc).map(taskIndexRow);

/** `task_list` (§8.8): exact, batch, paged, multi-column or compatibility listing, by precedence. */
export function taskList(state: ContextState, args: TaskListArgs): OpResult<'task_list'> {
  const { tasks, tasks_version } = state;
  if (args.task_id !== undefined) {
    const task = tasks.get(args.task_id.trim());
    if (!task) throw contextError(ContextErrorCodes.taskNotFound, `no task ${args.task_id}`, { task_id: args.task_id });
    return {
      task: { ...taskView(task), children: childrenOf(tasks, task.id).sort(byIdAsc).map(taskView) },
      tasks_version,
      delete_info: deleteInfo(tasks, task.id),
    };
  }
  if (args.task_ids !== undefined) {
    const ids = splitIds(args.task_ids);
    if (ids.length > MAX_BATCH_IDS) throw bad('task_ids', `at most ${MAX_BATCH_IDS} task ids per request`);
    return { tasks: ids.flatMap((id) => (tasks.has(id) ? [taskView(tasks.get(id)!)] : [])), tasks_version };
  }
  if (args.status !== undefined && args.statuses !== undefined) throw bad('statuses', 'status and statuses cannot be combined');
  if (args.offset !== undefined && args.limit === undefined) throw bad('offset', 'offset requires limit');
  if (args.limit !== undefined && (!Number.isInteger(args.limit) || args.limit < 1 || args.limit > MAX_PAGE)) {
    throw bad('limit', `limit must be 1..${MAX_PAGE}`);
  }
  if (args.offset !== undefined && (!Number.isInteger(args.offset) || args.offset < 0)) throw bad('offset', 'offset must be ≥ 0');
  const keep = filtersOf(args, tasks);
  const offset = args.offset ?? 0;
  const withIndex = args.include_index ? { task_index: indexOf(tasks) } : {};

  if (args.statuses !== undefined) {
    const wanted = splitIds(args.statuses);
    const unknown = wanted.filter((s) => !TASK_STATUSES.includes(s as TaskStatus));
    if (wanted.length === 0 || unknown.length > 0) throw bad('statuses', `statuses must be a comma-separated subset of ${TASK_STATUSES.join(',')}`);
    const limit = args.limit ?? DEFAULT_COLUMN_PAGE;
    const matching = [...tasks.values()].filter(keep);
    const pages: Record<string, ReturnType<typeof page>> = {};
    for (const status of wanted) pages[status] = page(matching.filter((t) => t.status === status).sort(columnOrder(status)), offset, limit);
    return { pages, tasks_version, facets: facetsOf(tasks), ...withIndex };
  }

  const rows = [...tasks.values()].filter((t) => (args.status === undefined || t.status === args.status) && keep(t));
  if (args.limit !== undefined) {
    return { ...page(rows.sort(columnOrder(args.status)), offset, args.limit), tasks_version, facets: facetsOf(tasks), ...withIndex };
  }
  return { tasks: rows.sort(byIdAsc).map(taskView), ...withIndex };
}
