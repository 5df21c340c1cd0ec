import type { Task } from './model.js';

// Tree rules over the task map: parents must exist, no cycles, subtree deletion.

export function childrenOf(tasks: ReadonlyMap<string, Task>, id: string): Task[] {
  const out: Task[] = [];
  for (const t of tasks.values()) if (t.parent_id === id) out.push(t);
  return out;
}

/** The task and every descendant, parent before children. */
export function subtreeOf(tasks: ReadonlyMap<string, Task>, id: string): Task[] {
  const byParent = new Map<string, Task[]>();
  for (const t of tasks.values()) {
    if (t.parent_id) byParent.set(t.parent_id, [...(byParent.get(t.parent_id) ?? []), t]);
  }
  const root = tasks.get(id);
  if (!root) return [];
  const out: Task[] = [];
  const stack = [root];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const t = stack.pop()!;
    if (seen.has(t.id)) continue;
    seen.add(t.id);
    out.push(t);
    stack.push(...(byParent.get(t.id) ?? []));
  }
  return out;
}

/** Would making `parentId` the parent of `id` put `id` among its own ancestors? */
export function wouldCycle(tasks: ReadonlyMap<string, Task>, id: string, parentId: string): boolean {
  const seen = new Set<string>();
  for (let cur: string | null = parentId; cur; cur = tasks.get(cur)?.parent_id ?? null) {
    if (cur === id) return true;
    if (seen.has(cur)) return true;
    seen.add(cur);
  }
  return false;
}

/** Never executed: planned, or archived straight from planned, and never started. */
export function neverExecuted(t: Task): boolean {
  if (t.started_at) return false;
  return t.status === 'planned' || (t.status === 'archived' && t.archived_from === 'planned');
}

export interface DeleteInfo {
  allowed: boolean;
  total: number;
  reason: string;
}

/** Whether `task.delete` would succeed, and how many tasks it would remove (task_list delete_info). */
export function deleteInfo(tasks: ReadonlyMap<string, Task>, id: string): DeleteInfo {
  const subtree = subtreeOf(tasks, id);
  const blocker = subtree.find((t) => !neverExecuted(t));
  if (!blocker) return { allowed: true, total: subtree.length, reason: '' };
  const which = blocker.id === id ? 'the task' : `descendant ${blocker.id}`;
  return {
    allowed: false,
    total: subtree.length,
    reason: `${which} has execution history (status ${blocker.status}); only never-executed planned subtrees can be deleted`,
  };
}
