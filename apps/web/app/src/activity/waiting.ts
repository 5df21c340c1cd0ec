import type { ActorListEntry } from '../api/types';
import { sanitizeToolName, type ActivityState } from './activity-store';
import { isManagedSource } from '../actors/working-badge';
import { english, type Translate } from '../i18n/plain';

// "lead is waiting for permission: Bash". The evidence: the actor's working state is `waiting`
// from its own hooks (a PermissionRequest, or a permission_prompt / needs-input Notification),
// never a guess from screen or output timing. The tool is the actor's open tool activity (a
// PermissionRequest makes its record `waiting`; a runtime that names no tool leaves the open
// PreToolUse record). Without a tool and after a Notification it may be a question, not a
// permission: then it reads "waiting for input".

export interface Waiting {
  readonly actorId: string;
  readonly kind: 'permission' | 'input';
  /** The tool it asks about (sanitized label), when the activity names one. */
  readonly tool: string | null;
  /** That tool's activity_id (the ticker shows it waiting instead of stuck). */
  readonly toolActivity: string | null;
}

type Evidence = Pick<ActorListEntry, 'id' | 'running' | 'effective_working_state' | 'effective_working_reason' | 'state_source'>;

/** The activity_id of the actor's most recent open tool (waiting first), or null. */
export function openToolOf(state: ActivityState, actorId: string): string | null {
  let best: { key: string; rank: number; at: number } | null = null;
  for (const [key, entry] of state) {
    const r = entry.record;
    if (r.actor_id !== actorId || r.kind !== 'tool' || r.status === 'completed' || r.status === 'failed') continue;
    const rank = r.status === 'waiting' ? 1 : 0;
    if (!best || rank > best.rank || (rank === best.rank && entry.at > best.at)) best = { key, rank, at: entry.at };
  }
  return best?.key ?? null;
}

export function waitingOf(actor: Evidence, state: ActivityState): Waiting | null {
  // Authoritative evidence only: hooks, or a managed session's app-server or ACP session (waiting =
  // an approval).
  const managed = isManagedSource(actor.state_source);
  if (!actor.running || (actor.state_source !== 'hook' && !managed) || actor.effective_working_state !== 'waiting') return null;
  if (managed) return { actorId: actor.id, kind: 'permission', tool: null, toolActivity: null };
  const key = openToolOf(state, actor.id);
  const record = key ? state.get(key)!.record : null;
  const tool = record ? sanitizeToolName(record.tool_name) || null : null;
  const asked = /PermissionRequest$/.test(actor.effective_working_reason) || record?.status === 'waiting';
  return { actorId: actor.id, kind: asked || tool ? 'permission' : 'input', tool, toolActivity: key };
}

/** The sentence the conversation and the card show, in the page's language. */
export function waitingText(name: string, w: Waiting, t: Translate = english): string {
  if (w.kind === 'input') return t('waiting.input', { name });
  return w.tool ? t('waiting.permissionTool', { name, tool: w.tool }) : t('waiting.permission', { name });
}
