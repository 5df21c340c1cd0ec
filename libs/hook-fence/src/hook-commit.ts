import { z } from 'zod';
import { activityRecordSchema, closesChildren, projectActivity } from './activity-record.js';
import { ActivityOverflowError, commitActivity, type ActivityEntry } from './activity-store.js';
import { applyHookEvent, applyInterrupt, type FenceContext, type FenceRejection } from './fence.js';
import type { HookState } from './hook-state.js';
import type { HookEvent } from './payloads.js';

const storeSchema = z.array(z.strictObject({ record: activityRecordSchema, started_at: z.string().min(1) }));

/** `groups/<id>/state/runtime-activity/events.json`: all or nothing, never a partial view. */
export function decodeActivityStore(text: string | null): { entries: ActivityEntry[] } | { error: 'runtime_activity_unavailable'; detail: string } {
  if (text === null) return { entries: [] };
  try {
    const parsed = storeSchema.safeParse(JSON.parse(text));
    if (parsed.success) return { entries: parsed.data };
    return { error: 'runtime_activity_unavailable', detail: parsed.error.issues[0]!.path.join('.') || '(root)' };
  } catch {
    return { error: 'runtime_activity_unavailable', detail: 'not JSON' };
  }
}

export function encodeActivityStore(entries: readonly ActivityEntry[]): string {
  return JSON.stringify(entries) + '\n';
}

export type HookCommit =
  | { accepted: true; state: HookState; entries: ActivityEntry[] }
  | { accepted: false; reason: FenceRejection | 'runtime_activity_overflow'; state: HookState; entries: readonly ActivityEntry[] };

export interface HookCommitInput {
  state: HookState;
  entries: readonly ActivityEntry[];
  event: HookEvent;
  ctx: FenceContext;
  now: Date;
  newId: () => string;
}

/**
 * One hook event through fence, projection and retention, as the single transition the daemon
 * persists under the actor's lock: hook state and activity change together or not at all (an
 * activity overflow rejects the event and keeps the old state).
 */
export function commitHookEvent(input: HookCommitInput): HookCommit {
  const fenced = applyHookEvent(input.state, input.event, input.ctx);
  if (!fenced.accepted) return { accepted: false, reason: fenced.reason, state: fenced.state, entries: input.entries };
  const session = fenced.state.session_id;
  try {
    const entries = commitActivity(input.entries, {
      drafts: projectActivity(input.state, fenced.state, input.event),
      closeChildren:
        closesChildren(input.event) && session
          ? { actor_id: fenced.state.actor_id, session_id: session, closeStatus: 'completed', event_type: input.event.event }
          : undefined,
      now: input.now,
      newId: input.newId,
    });
    return { accepted: true, state: fenced.state, entries };
  } catch (error) {
    if (error instanceof ActivityOverflowError) return { accepted: false, reason: 'runtime_activity_overflow', state: input.state, entries: input.entries };
    throw error;
  }
}

export interface InterruptCommitInput {
  state: HookState;
  entries: readonly ActivityEntry[];
  now: Date;
  /** The hook state's `updated_at` (the daemon's timestamp format). */
  updatedAt: string;
  newId: () => string;
}

/**
 * A terminal interrupt (Ctrl-C or a lone ESC typed at the agent's terminal) as one transition:
 * the turn is over without a hook (idle + interrupted), and the open child activity of the
 * session is closed with it. `changed: false` before a session and after its end. Closing
 * activity only ever retires records, so it cannot overflow the store.
 */
export function commitInterrupt(input: InterruptCommitInput): { changed: boolean; state: HookState; entries: readonly ActivityEntry[] } {
  const state = applyInterrupt(input.state, input.updatedAt);
  if (state === input.state) return { changed: false, state, entries: input.entries };
  const session = state.session_id;
  const entries = session
    ? commitActivity(input.entries, {
        drafts: [],
        closeChildren: { actor_id: state.actor_id, session_id: session, closeStatus: 'completed', event_type: 'Interrupt' },
        now: input.now,
        newId: input.newId,
      })
    : input.entries;
  return { changed: true, state, entries };
}
