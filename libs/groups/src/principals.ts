import { groupError } from './errors.js';
import type { ActorDoc } from './schemas/actor.js';

/** §7.1: an omitted or blank `by` means the op's default principal (the user unless stated). */
export function principalOf(by: string | undefined, fallback = 'user'): string {
  const trimmed = by?.trim();
  return trimmed ? trimmed : fallback;
}

/** Principals that are not actors of any group: the user, the system and services (`svc:<name>`). */
export function isNonActorPrincipal(by: string): boolean {
  return by === 'user' || by === 'system' || by.startsWith('svc:');
}

/** Who may write as `by` in a group: a non-actor principal or one of the group's actors. */
export function isKnownSender(group: { readonly actors: readonly Pick<ActorDoc, 'id'>[] }, by: string): boolean {
  return isNonActorPrincipal(by) || group.actors.some((a) => a.id === by);
}

/** Throws `permission_denied` unless `by` may write in this group (see `isKnownSender`). */
export function assertKnownSender(group: { readonly actors: readonly Pick<ActorDoc, 'id'>[] }, by: string): void {
  if (!isKnownSender(group, by)) throw groupError('permission_denied', `unknown sender: ${by} is not an actor of this group`, { by });
}

/**
 * How a sender of `srcGroupId` is named in another group: an actor there is a foreign principal
 * qualified by its group (`peer1@g_…`); the user, the system and services keep their name.
 */
export function foreignPrincipal(by: string, srcGroupId: string): string {
  return isNonActorPrincipal(by) ? by : `${by}@${srcGroupId}`;
}
