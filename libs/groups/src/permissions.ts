import { effectiveRole, type ActorRole } from './actors.js';
import { groupError } from './errors.js';
import type { ActorDoc } from './schemas/actor.js';

/**
 * Every action an op asks permission for (REFERENCE_NOTES §9 and the spec's per-op notes).
 * The daemon maps each op to one action; the decision is a pure function of data.
 */
export const PermissionActions = [
  'group.create',
  'group.read',
  'group.attach',
  'group.update',
  'group.settings',
  'group.detach_scope',
  'group.use',
  'group.delete',
  'group.set_state',
  'group.start',
  'group.stop',
  'group.preamble_write',
  'group.help_read',
  'actor.list',
  'actor.add',
  'actor.update',
  'actor.remove',
  'actor.start',
  'actor.stop',
  'actor.restart',
  'actor.env_private',
  'actor.notes_read',
  'actor.notes_write',
  'actor.transcript_read',
  'profile.read',
  'profile.write',
  'profile.secret',
  'message.send',
  'message.cancel',
  'message.deliver',
  'inbox.read',
  'mail.mark_read',
  'history.read',
  'debug.read',
  'context.brief_update',
  'context.notes',
  'context.task',
  'context.agent_state',
  'settings.global',
] as const;
export type PermissionAction = (typeof PermissionActions)[number];

export interface PermissionContext {
  /** The group's `actors[]` (roles are derived from it). Absent for global actions. */
  actors?: readonly ActorDoc[];
  /** The actor the op acts on (actor ops, inbox/history/notes/transcript views). */
  targetActorId?: string;
  /** The sender of the message an op refers to (cancel, deliver). */
  sourceSenderId?: string;
  /** `actor.add` by the foreman: true when the new actor strictly clones the foreman's runtime/runner/command/env. */
  isForemanClone?: boolean;
  /** `terminal_transcript.visibility` for `actor.transcript_read` (default `foreman`). */
  transcriptVisibility?: 'off' | 'foreman' | 'all';
  /** `context.task`: the task's assignee and handoff target. */
  taskAssignee?: string;
  taskHandoffTo?: string;
}

export type PermissionDecision = { allowed: true; role: 'user' | ActorRole } | { allowed: false; reason: string };

/** An empty `by` or `user` is the human principal with full access. */
export function isUserPrincipal(principal: string | undefined): boolean {
  const p = (principal ?? '').trim();
  return p === '' || p === 'user';
}

const USER_ONLY = new Set<PermissionAction>(['group.create', 'actor.update', 'actor.env_private', 'profile.write', 'profile.secret', 'settings.global']);
const FOREMAN_GROUP_ADMIN = new Set<PermissionAction>([
  'group.attach',
  'group.update',
  'group.settings',
  'group.detach_scope',
  'group.use',
  'group.delete',
  'group.set_state',
  'group.start',
  'group.stop',
  'group.preamble_write',
  'actor.notes_write',
  'actor.start',
  'debug.read',
  'context.brief_update',
]);
const ANY_MEMBER = new Set<PermissionAction>(['group.read', 'actor.list', 'actor.restart', 'message.send', 'context.notes', 'profile.read']);

/** Pure permission decision for `principal` doing `action` in `context`. */
export function decidePermission(principal: string | undefined, action: PermissionAction, context: PermissionContext = {}): PermissionDecision {
  if (isUserPrincipal(principal)) return { allowed: true, role: 'user' };
  const by = principal!.trim();
  if (USER_ONLY.has(action)) return { allowed: false, reason: `${action} is restricted to user` };
  if (action === 'profile.read') return { allowed: true, role: 'peer' };
  const role = context.actors ? effectiveRole(context.actors, by) : undefined;
  if (!role) return { allowed: false, reason: `${by} is not an actor of this group` };
  const allow = { allowed: true, role } as const;
  const deny = (reason: string) => ({ allowed: false, reason }) as const;
  const target = context.targetActorId;
  const isSelf = target === undefined || target === by;

  if (ANY_MEMBER.has(action)) return allow;
  if (FOREMAN_GROUP_ADMIN.has(action)) return role === 'foreman' ? allow : deny(`${action} requires the foreman or user`);

  switch (action) {
    case 'actor.add':
      return role === 'foreman' && context.isForemanClone === true
        ? allow
        : deny('the foreman may only add a strict clone of itself; peers may not add actors');
    case 'actor.stop':
      return role === 'foreman' || isSelf ? allow : deny('a peer may stop only itself');
    case 'actor.remove': {
      if (isSelf) return allow;
      if (role !== 'foreman') return deny('a peer may remove only itself');
      const targetRole = context.actors ? effectiveRole(context.actors, target!) : undefined;
      return targetRole !== 'foreman' ? allow : deny('the foreman may remove only itself or peers');
    }
    case 'inbox.read':
    case 'history.read':
    case 'group.help_read':
    case 'actor.notes_read':
      return role === 'foreman' || (target !== undefined && target === by) ? allow : deny(`a peer may only read its own ${action.split('.')[0]} view`);
    case 'mail.mark_read':
    case 'context.agent_state':
      return target !== undefined && target === by ? allow : deny(`${action} is allowed only for the actor itself or user`);
    case 'message.cancel':
    case 'message.deliver':
      return context.sourceSenderId === by ? allow : deny('only the source sender or user may do this');
    case 'actor.transcript_read': {
      const visibility = context.transcriptVisibility ?? 'foreman';
      if (target === by) return allow;
      if (visibility === 'all') return allow;
      if (visibility === 'foreman' && role === 'foreman') return allow;
      return deny(`terminal transcript visibility is ${visibility}`);
    }
    case 'context.task':
      return role === 'foreman' || context.taskAssignee === by || context.taskHandoffTo === by
        ? allow
        : deny('only the assignee, handoff target, foreman or user may change this task');
    default:
      return deny(`${action} is not allowed for ${role}`);
  }
}

/** Throw `permission_denied` (with the action and reason in details) unless the decision allows it. */
export function checkPermission(principal: string | undefined, action: PermissionAction, context: PermissionContext = {}): 'user' | ActorRole {
  const decision = decidePermission(principal, action, context);
  if (!decision.allowed) {
    throw groupError('permission_denied', `permission denied: ${decision.reason}`, {
      action,
      by: principal ?? '',
      ...(context.targetActorId ? { target_actor_id: context.targetActorId } : {}),
    });
  }
  return decision.role;
}

/** For `actor.add` by a foreman: does the new actor strictly clone the foreman's runtime, runner, command and env? */
export function isStrictForemanClone(foreman: ActorDoc, candidate: Pick<ActorDoc, 'runtime' | 'runner' | 'command' | 'env'>): boolean {
  return (
    foreman.runtime === candidate.runtime &&
    foreman.runner === candidate.runner &&
    JSON.stringify(foreman.command) === JSON.stringify(candidate.command) &&
    JSON.stringify(Object.entries(foreman.env).sort()) === JSON.stringify(Object.entries(candidate.env).sort())
  );
}
