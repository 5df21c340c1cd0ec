import { spaceError } from './errors.js';

/** The two fixed daemon-owned lanes (§8.18). */
export const LANES = ['work', 'memory'] as const;
export type Lane = (typeof LANES)[number];

/** Ops that are supported only on lane="work" (§8.18 normative lane rules). */
const WORK_ONLY = new Set(['group_space_ingest', 'group_space_artifact']);

export function isLane(value: unknown): value is Lane {
  return value === 'work' || value === 'memory';
}

/** Throws `invalid_request` (details field lane) when `op` is work-only and lane is memory. */
export function assertLaneAllowed(op: string, lane: Lane): void {
  if (WORK_ONLY.has(op) && lane !== 'work') {
    throw spaceError('invalid_request', `${op} is supported only on lane="work"`, { field: 'lane', reason: 'work_lane_only', lane });
  }
}

/** MEMORY.md stays local-only and is never uploaded (§8.18), whatever the path spelling. */
export function isLocalOnlyMemoryFile(path: string): boolean {
  const base = path.split(/[\\/]/).pop() ?? '';
  return base.toLowerCase() === 'memory.md';
}

/** A daily memory file name: `<YYYY-MM-DD>__<label>.md` (the memory lib's layout) or `<YYYY-MM-DD>.md`. */
export function dailyFileDate(name: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})(?:__[^/\\]*)?\.md$/.exec(name);
  return m?.[1];
}

/**
 * A daily file is finalized once its day is over (strictly before `today`); MEMORY.md and any
 * other name never qualify.
 */
export function isFinalizedDailyFile(name: string, today: string): boolean {
  if (isLocalOnlyMemoryFile(name)) return false;
  const date = dailyFileDate(name);
  return date !== undefined && date < today;
}
