import type { Task } from './model.js';
import { taskNumber } from './task-ids.js';

// §8.8: planned tasks sort newest-created first; other columns most-recently-updated first;
// the numeric task id (higher = newer) breaks ties so pages never reshuffle.

const byIdDesc = (a: Task, b: Task) => taskNumber(b.id) - taskNumber(a.id);
const desc = (x: string, y: string) => (x < y ? 1 : x > y ? -1 : 0);

export function newestCreatedFirst(a: Task, b: Task): number {
  return desc(a.created_at, b.created_at) || byIdDesc(a, b);
}

export function recentlyUpdatedFirst(a: Task, b: Task): number {
  return desc(a.updated_at, b.updated_at) || byIdDesc(a, b);
}

export function columnOrder(status: string | undefined): (a: Task, b: Task) => number {
  return status === 'planned' ? newestCreatedFirst : recentlyUpdatedFirst;
}

export const byIdAsc = (a: Task, b: Task) => taskNumber(a.id) - taskNumber(b.id);
