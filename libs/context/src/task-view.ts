import type { Task } from './model.js';

/** The wire form of a task: every stored field except the tracked_send bookkeeping key. */
export type TaskView = Omit<Task, 'idempotency_key'>;

export function taskView(t: Task): TaskView {
  if (t.idempotency_key === undefined) return t;
  const { idempotency_key: _key, ...rest } = t;
  return rest;
}

/** The lightweight row of `include_index` (relationship selectors). */
export function taskIndexRow(t: Task) {
  return { id: t.id, title: t.title, status: t.status, assignee: t.assignee, parent_id: t.parent_id };
}
