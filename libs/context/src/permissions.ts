import type { ParsedOp } from './op-schemas.js';
import type { Task } from './model.js';

/** Who acts: the human user, or an actor with its effective role (the caller resolves roles). */
export type ContextRole = 'user' | 'foreman' | 'peer';
export interface ContextPrincipal {
  readonly id: string;
  readonly role: ContextRole;
}

/** Actor id → role, as the group document decides it (first visible actor is the foreman). */
export type ActorRoles = ReadonlyMap<string, 'foreman' | 'peer'>;

export type Authorization = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

const ALLOW: Authorization = { allowed: true };
const deny = (reason: string): Authorization => ({ allowed: false, reason });

/** A peer may hand work to itself, the foreman or the user, never to another peer. */
function peerMayAssign(principal: ContextPrincipal, assignee: string | null | undefined, roles: ActorRoles): boolean {
  if (principal.role !== 'peer' || !assignee || assignee === principal.id) return true;
  return roles.get(assignee) !== 'peer';
}

/** Tasks a peer may act on: the ones assigned or handed off to it. */
function peerOwns(principal: ContextPrincipal, task: Task): boolean {
  return task.assignee === principal.id || task.handoff_to === principal.id;
}

/**
 * The permission table of CONTEXT_OPS_NOTES as one pure function. `task` is the op's target as
 * it stands before the op (after the earlier ops of the same batch), when the op has one.
 */
export function authorizeOp(principal: ContextPrincipal, op: ParsedOp, task: Task | undefined, roles: ActorRoles): Authorization {
  if (principal.role === 'user') return ALLOW;
  switch (op.op) {
    case 'coordination.brief.update':
    case 'meta.merge':
      return principal.role === 'foreman' ? ALLOW : deny(`${op.op} is for the foreman or the user`);
    case 'coordination.note.add':
      return ALLOW;
    case 'task.create':
      return peerMayAssign(principal, op.assignee, roles) ? ALLOW : deny('a peer may not assign a task to another peer');
    case 'task.update':
    case 'task.move':
    case 'task.restore':
    case 'task.delete': {
      if (principal.role === 'foreman') return ALLOW;
      if (!task || !peerOwns(principal, task)) return deny(`${op.op} on a task not assigned or handed off to ${principal.id}`);
      if (op.op === 'task.update' && !peerMayAssign(principal, op.assignee, roles)) {
        return deny('a peer may not assign a task to another peer');
      }
      return ALLOW;
    }
    case 'agent_state.update':
    case 'agent_state.clear':
      return op.actor_id === principal.id ? ALLOW : deny(`only ${op.actor_id} or the user may change its agent_state`);
  }
}
