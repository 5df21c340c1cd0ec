import { isTerminal, type ActivityDraft, type ActivityRecord } from './activity-record.js';

export const ACTIVITY_GROUP_LIMIT = 256;
export const ACTIVITY_MAX_AGE_MS = 5 * 60_000;
export const SNAPSHOT_COMPLETED_WINDOW_MS = 15_000;
export const STUCK_AFTER_MS = 60_000;

/** The latest display revision of one activity plus when it started (for durations). */
export interface ActivityEntry {
  record: ActivityRecord;
  started_at: string;
}

export class ActivityOverflowError extends Error {
  readonly code = 'runtime_activity_overflow';
  constructor() {
    super('runtime activity limit reached with only started activity left to evict');
  }
}

export interface CommitInput {
  drafts: ActivityDraft[];
  /** When set, open child activity of this actor/session is closed with `closeStatus`. */
  closeChildren?: { actor_id: string; session_id: string; closeStatus: 'completed' | 'failed'; event_type: string };
  now: Date;
  newId: () => string;
}

const ms = (iso: string): number => Date.parse(iso);

/**
 * Commit the revisions of one accepted hook event. Pure: returns the new entry list or throws
 * `ActivityOverflowError`, in which case the caller must not persist anything.
 */
export function commitActivity(entries: readonly ActivityEntry[], input: CommitInput): ActivityEntry[] {
  const ts = input.now.toISOString();
  const byId = new Map(entries.map((e) => [e.record.activity_id, e]));
  const touched = new Set<string>();
  const put = (draft: ActivityDraft): void => {
    const prev = byId.get(draft.activity_id);
    // A late start or waiting revision never reopens an activity that already ended.
    if (prev && isTerminal(prev.record.status) && !isTerminal(draft.status)) return;
    const started_at = prev?.started_at ?? ts;
    const duration_ms = isTerminal(draft.status) ? Math.max(0, input.now.getTime() - ms(started_at)) : null;
    byId.delete(draft.activity_id); // re-insert so map order is recency order
    byId.set(draft.activity_id, { record: { ...draft, id: input.newId(), ts, duration_ms }, started_at });
    touched.add(draft.activity_id);
  };
  for (const d of input.drafts) put(d);
  const close = input.closeChildren;
  if (close) {
    for (const e of [...byId.values()]) {
      const r = e.record;
      if (touched.has(r.activity_id) || isTerminal(r.status) || r.kind === 'session') continue;
      if (r.actor_id !== close.actor_id || r.session_id !== close.session_id) continue;
      const { id: _id, ts: _ts, duration_ms: _d, ...draft } = r;
      put({ ...draft, status: close.closeStatus, event_type: close.event_type });
    }
  }
  return enforceLimits([...byId.values()], input.now);
}

/** Age limit, then the group limit: terminal history first, then waiting, never a started one. */
export function enforceLimits(entries: ActivityEntry[], now: Date): ActivityEntry[] {
  const cutoff = now.getTime() - ACTIVITY_MAX_AGE_MS;
  const kept = entries.filter((e) => ms(e.record.ts) >= cutoff);
  const excess = kept.length - ACTIVITY_GROUP_LIMIT;
  if (excess <= 0) return kept;
  const rank = (e: ActivityEntry): number => (isTerminal(e.record.status) ? 0 : e.record.status === 'waiting' ? 1 : 2);
  const victims = [...kept]
    .sort((a, b) => rank(a) - rank(b) || ms(a.record.ts) - ms(b.record.ts))
    .slice(0, excess);
  if (victims.some((v) => rank(v) === 2)) throw new ActivityOverflowError();
  const drop = new Set(victims);
  return kept.filter((e) => !drop.has(e));
}

/**
 * What a fresh viewer sees: active records and completions of the last 15 s. An active turn or
 * tool with no revision for 60 s is shown as a synthetic `stuck`; it is never stored, so any
 * real completed/failed revision wins.
 */
export function activitySnapshot(entries: readonly ActivityEntry[], now: Date, stuckAfterMs = STUCK_AFTER_MS): ActivityRecord[] {
  const t = now.getTime();
  const out: ActivityRecord[] = [];
  for (const { record } of entries) {
    const age = t - ms(record.ts);
    if (age > ACTIVITY_MAX_AGE_MS) continue;
    if (isTerminal(record.status)) {
      if (age <= SNAPSHOT_COMPLETED_WINDOW_MS) out.push(record);
      continue;
    }
    const stuck = (record.kind === 'tool' || record.kind === 'turn') && age >= stuckAfterMs;
    out.push(stuck ? { ...record, status: 'stuck' } : record);
  }
  return out;
}
