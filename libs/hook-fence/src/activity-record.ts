import { RuntimeActivityRecord } from '@cccc/ipc-protocol';
import type { HookState } from './hook-state.js';
import type { HookEvent } from './payloads.js';

/** The wire schema lives in @cccc/ipc-protocol (runtime_activity_snapshot results); one definition. */
export const activityRecordSchema = RuntimeActivityRecord;
export const ACTIVITY_KINDS = RuntimeActivityRecord.shape.kind.options;
export const ACTIVITY_STATUSES = RuntimeActivityRecord.shape.status.options;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];

export type ActivityRecord = RuntimeActivityRecord;

const KEY_ORDER = Object.keys(activityRecordSchema.shape) as (keyof ActivityRecord)[];

export function encodeActivityRecord(record: ActivityRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of KEY_ORDER) out[key] = record[key];
  return out;
}

export function isTerminal(status: ActivityStatus): boolean {
  return status === 'completed' || status === 'failed';
}

/** A record of the activity channel, before the store fills in `duration_ms`. */
export type ActivityDraft = Omit<ActivityRecord, 'id' | 'ts' | 'duration_ms'>;

/**
 * The activity an accepted transition produces. Codex projects sessions, turns, tools and
 * subagents; Claude's turn hooks stay observational and only its tool activity is projected.
 * `before` is the state the fence saw, `after` the state it accepted.
 */
export function projectActivity(before: HookState, after: HookState, ev: HookEvent): ActivityDraft[] {
  const session = after.session_id ?? ev.sessionId;
  const rt = ev.runtime;
  const draft = (kind: ActivityKind, identity: string, status: ActivityStatus, turn: string | null, op: string | null): ActivityDraft => ({
    v: 1,
    group_id: after.group_id,
    actor_id: after.actor_id,
    runtime: rt,
    activity_id: `${rt}:${session}:${kind}:${identity}`,
    kind,
    status,
    event_type: ev.event,
    session_id: session,
    turn_id: turn,
    operation_id: op,
    tool_name: kind === 'tool' ? ev.toolName : null,
  });
  const turn = after.turn_id;
  // A codex PermissionRequest names no tool_use_id: it is about the one operation the fence holds open.
  const toolId = ev.toolUseId ?? (rt === 'codex' && ev.event === 'PermissionRequest' ? after.operation_id : null);
  const tool = (status: ActivityStatus): ActivityDraft[] => (toolId ? [draft('tool', toolId, status, turn, toolId)] : []);
  switch (ev.event) {
    case 'PreToolUse':
      return tool('started');
    case 'PermissionRequest':
      return tool('waiting');
    case 'PostToolUse':
      return tool('completed');
    case 'PostToolUseFailure':
      return tool('failed');
  }
  if (rt === 'claude') return [];
  switch (ev.event) {
    case 'SessionStart':
      return [draft('session', session, 'started', null, null)];
    case 'SessionEnd':
      return [draft('session', session, 'completed', before.turn_id, null)];
    case 'UserPromptSubmit':
      return turn ? [draft('turn', turn, 'started', turn, null)] : [];
    case 'Stop':
      return turn ? [draft('turn', turn, 'completed', turn, null)] : [];
    case 'StopFailure':
      return turn ? [draft('turn', turn, 'failed', turn, null)] : [];
    case 'SubagentStart':
      return ev.agentId ? [draft('subagent', ev.agentId, 'started', turn, null)] : [];
    case 'SubagentStop':
      return ev.agentId ? [draft('subagent', ev.agentId, 'completed', turn, null)] : [];
    default:
      return [];
  }
}

/** Events after which any child activity of the actor's session that is still open is closed. */
export function closesChildren(ev: HookEvent | 'Interrupt'): boolean {
  if (ev === 'Interrupt') return true;
  return ev.event === 'SessionEnd' || ev.event === 'Stop' || ev.event === 'StopFailure';
}
