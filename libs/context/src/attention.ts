import type { OpArgs } from '@cccc/ipc-protocol';
import { isOpen, type Task } from './model.js';

// Computed views over the task map (never stored): what needs someone's attention.

/** Open, with a blocker that is not done yet (an unknown or archived blocker still blocks). */
export function isBlocked(t: Task, tasks: ReadonlyMap<string, Task>): boolean {
  return isOpen(t) && t.blocked_by.some((id) => tasks.get(id)?.status !== 'done');
}

export const isWaitingUser = (t: Task) => isOpen(t) && t.waiting_on === 'user';

/** Handed off to someone who has not taken it over yet. */
export const isPendingHandoff = (t: Task) => isOpen(t) && t.handoff_to !== null && t.handoff_to !== t.assignee;

export const isUnassigned = (t: Task) => isOpen(t) && !t.assignee;

/** The `attention` filter of `task_list`, as the catalog names it. */
export type AttentionKind = NonNullable<OpArgs<'task_list'>['attention']>;

export function matchesAttention(kind: AttentionKind, t: Task, tasks: ReadonlyMap<string, Task>): boolean {
  switch (kind) {
    case 'blocked':
      return isBlocked(t, tasks);
    case 'waiting_user':
      return isWaitingUser(t);
    case 'handoff':
      return isPendingHandoff(t);
    case 'unassigned':
      return isUnassigned(t);
  }
}

export type AttentionItem = Pick<Task, 'id' | 'title' | 'status' | 'assignee' | 'waiting_on' | 'handoff_to' | 'blocked_by'>;

/** A small record per attention item (full detail); `summary` reports only the counts. */
function attentionItem(t: Task): AttentionItem {
  return { id: t.id, title: t.title, status: t.status, assignee: t.assignee, waiting_on: t.waiting_on, handoff_to: t.handoff_to, blocked_by: t.blocked_by };
}

export function attentionLists(tasks: ReadonlyMap<string, Task>) {
  const blocked: Task[] = [];
  const waiting: Task[] = [];
  const handoffs: Task[] = [];
  for (const t of tasks.values()) {
    if (isBlocked(t, tasks)) blocked.push(t);
    if (isWaitingUser(t)) waiting.push(t);
    if (isPendingHandoff(t)) handoffs.push(t);
  }
  return { blocked, waiting_user: waiting, pending_handoffs: handoffs };
}

export function attentionCounts(tasks: ReadonlyMap<string, Task>) {
  const l = attentionLists(tasks);
  return { blocked: l.blocked.length, waiting_user: l.waiting_user.length, pending_handoffs: l.pending_handoffs.length };
}

export function attentionDetail(tasks: ReadonlyMap<string, Task>) {
  const l = attentionLists(tasks);
  return { blocked: l.blocked.map(attentionItem), waiting_user: l.waiting_user.map(attentionItem), pending_handoffs: l.pending_handoffs.map(attentionItem) };
}
