/** What the capability core needs to know about a group: who is in it and in which role. */
export interface GroupView {
  readonly group_id: string;
  readonly actors: ReadonlyArray<{
    readonly id: string;
    readonly title?: string;
    readonly role: 'foreman' | 'peer';
    readonly capability_autoload?: readonly string[];
    readonly capability_hidden?: readonly string[];
    /** The linked profile's `capability_defaults.autoload_capabilities`, when the actor has one. */
    readonly profile?: { readonly id: string; readonly name?: string; readonly autoload: readonly string[] };
  }>;
}

export type CallerRole = 'user' | 'foreman' | 'peer';

/** The principal of a request: a blank `by` is the user (spec §7.1). */
export function principal(by: string | undefined): string {
  const trimmed = by?.trim();
  return trimmed ? trimmed : 'user';
}

/** `user` and `system` act as the user; an id that is no actor of the group has no role. */
export function roleOfPrincipal(group: GroupView, by: string): CallerRole | undefined {
  if (by === 'user' || by === 'system') return 'user';
  return group.actors.find((a) => a.id === by)?.role;
}

export function roleOfActor(group: GroupView, actorId: string): CallerRole | undefined {
  if (actorId === 'user') return 'user';
  return group.actors.find((a) => a.id === actorId)?.role;
}
