import type { RuntimeActivityRecord } from '@cccc/ipc-protocol';
import type { MessageKey } from '../i18n/catalogs/en';
import { english, type Translate } from '../i18n/plain';

// The browser's runtime-activity store (spec pty-runtime-activity.md, "Retention and Recovery"):
// pure, group-scoped, and keyed by activity_id. Time is always passed in so the rules are testable.

export type ActivityRecord = RuntimeActivityRecord;

/** The browser keeps active records at most five minutes ... */
export const ACTIVE_RETENTION_MS = 5 * 60_000;
/** ... and completed (or failed) records eight seconds. */
export const DONE_RETENTION_MS = 8_000;
/** An active turn or tool that has not advanced for 60 s is shown as stuck. */
export const STUCK_AFTER_MS = 60_000;

export interface ActivityEntry {
  readonly record: ActivityRecord;
  /** When this revision happened, on the browser's clock (see `anchor`). */
  readonly at: number;
  /** When the activity started (for the active duration and the five-minute bound). */
  readonly startedAt: number;
}

/** activity_id → latest display revision. Immutable: every change returns a new map. */
export type ActivityState = ReadonlyMap<string, ActivityEntry>;
export const emptyActivity: ActivityState = new Map();

const isDone = (status: string) => status === 'completed' || status === 'failed';

/**
 * A revision's time on the browser clock: its server timestamp, but never later than when it
 * arrived (a server clock ahead of ours must not keep a completion on screen longer) and never
 * older than the retention window (a garbled ts falls back to arrival time).
 */
export function anchor(record: ActivityRecord, receivedAt: number): number {
  const ts = Date.parse(record.ts);
  if (!Number.isFinite(ts)) return receivedAt;
  return Math.min(receivedAt, Math.max(ts, receivedAt - ACTIVE_RETENTION_MS));
}

/**
 * Apply one revision (from the snapshot, an SSE replay or a live frame; duplicates are normal).
 * A newer revision of the same activity replaces the older one; a real completion or failure
 * always supersedes an active or stuck revision whatever its timestamp; an active revision never
 * reopens a finished activity. A session end closes that actor's open children of the session.
 */
export function applyActivity(state: ActivityState, record: ActivityRecord, receivedAt: number): ActivityState {
  const prev = state.get(record.activity_id);
  if (prev && prev.record.id === record.id) return state;
  const at = anchor(record, receivedAt);
  if (prev) {
    const prevDone = isDone(prev.record.status);
    const nextDone = isDone(record.status);
    if (prevDone && !nextDone) return state;
    if (prevDone === nextDone && Date.parse(record.ts) < Date.parse(prev.record.ts)) return state;
  }
  const startedAt = prev && !isDone(prev.record.status) ? prev.startedAt : record.status === 'started' ? at : (prev?.startedAt ?? at);
  const next = new Map(state);
  next.set(record.activity_id, { record, at, startedAt });
  if (record.kind === 'session' && isDone(record.status)) closeChildren(next, record, at);
  return next;
}

function closeChildren(state: Map<string, ActivityEntry>, session: ActivityRecord, at: number): void {
  for (const [key, entry] of state) {
    const r = entry.record;
    if (r.actor_id !== session.actor_id || r.session_id !== session.session_id || r.kind === 'session' || isDone(r.status)) continue;
    state.set(key, { ...entry, at, record: { ...r, status: 'completed', event_type: session.event_type } });
  }
}

/** Drop what the browser no longer retains. Returns the same map when nothing expired. */
export function pruneActivity(state: ActivityState, now: number): ActivityState {
  let next: Map<string, ActivityEntry> | undefined;
  for (const [key, entry] of state) {
    const expired = isDone(entry.record.status) ? now - entry.at > DONE_RETENTION_MS : now - entry.startedAt > ACTIVE_RETENTION_MS;
    if (!expired) continue;
    next ??= new Map(state);
    next.delete(key);
  }
  return next ?? state;
}

export type BubbleStatus = 'started' | 'waiting' | 'completed' | 'failed' | 'stuck';

/** One ticker bubble: what the actor is doing with which tool. */
export interface ActivityBubble {
  readonly key: string;
  readonly actorId: string;
  readonly kind: 'tool' | 'subagent' | 'turn';
  readonly status: BubbleStatus;
  readonly label: string;
  readonly text: string;
  /** Milliseconds since the activity started (active) or its duration (finished, when known). */
  readonly elapsedMs: number;
}

/** Tool names reach the DOM only as the 64-character label the privacy boundary allows. */
export function sanitizeToolName(name: string | null | undefined): string {
  return (name ?? '').replace(/[^A-Za-z0-9_.:/-]/g, '').slice(0, 64);
}

const BUBBLE_KEYS = {
  started: 'activity.started',
  waiting: 'activity.waiting',
  completed: 'activity.completed',
  failed: 'activity.failed',
  stuck: 'activity.stuck',
} as const satisfies Record<BubbleStatus, MessageKey>;

/**
 * Project the store into bubbles for one actor, newest first. Only tool and subagent activity
 * makes bubbles; a turn shows up only as a stuck diagnosis, and not when one of the actor's tools
 * is already shown stuck (the redundant indicator is suppressed). `waitingTool` is the activity
 * the actor's own hooks say it waits on for permission (waiting.ts): that tool reads "waiting for
 * permission", never "stuck", however long the person takes, and no turn is diagnosed stuck.
 */
export function projectBubbles(state: ActivityState, actorId: string, now: number, waitingTool: string | null = null, t: Translate = english): ActivityBubble[] {
  const bubbles: ActivityBubble[] = [];
  const stuckTurns: ActivityBubble[] = [];
  for (const [key, entry] of state) {
    const r = entry.record;
    if (r.actor_id !== actorId) continue;
    const done = isDone(r.status);
    if (done ? now - entry.at > DONE_RETENTION_MS : now - entry.startedAt > ACTIVE_RETENTION_MS) continue;
    const stale = !done && (r.status === 'stuck' || (r.status === 'started' && now - entry.at > STUCK_AFTER_MS));
    const status: BubbleStatus = key === waitingTool && !done ? 'waiting' : stale ? 'stuck' : (r.status as BubbleStatus);
    const elapsedMs = done ? (r.duration_ms ?? Math.max(0, entry.at - entry.startedAt)) : Math.max(0, now - entry.startedAt);
    if (r.kind === 'tool' || r.kind === 'subagent') {
      const label = sanitizeToolName(r.tool_name) || (r.kind === 'subagent' ? 'subagent' : 'tool');
      // The tool's own name stays as the runtime gave it; the generic fallbacks read in the page's language.
      const named = sanitizeToolName(r.tool_name) || t(r.kind === 'subagent' ? 'activity.subagent' : 'activity.tool');
      bubbles.push({ key, actorId, kind: r.kind, status, label, text: t(BUBBLE_KEYS[status], { label: named }), elapsedMs });
    } else if (r.kind === 'turn' && status === 'stuck') {
      stuckTurns.push({ key, actorId, kind: 'turn', status, label: 'turn', text: t('activity.turnStuck'), elapsedMs });
    }
  }
  if (!waitingTool && !bubbles.some((b) => b.status === 'stuck')) bubbles.push(...stuckTurns);
  const rank = (b: ActivityBubble) => (b.status === 'completed' || b.status === 'failed' ? 1 : 0);
  return bubbles.sort((a, b) => rank(a) - rank(b) || a.elapsedMs - b.elapsedMs);
}
