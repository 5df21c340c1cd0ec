import { isEventOfKind, type CCCSEventV1 } from '@cccc/ipc-protocol';
import type { DaemonClient } from '@cccc/ipc-protocol/node';
import { HttpError } from '../http/errors.js';
import type { RequestContext } from '../http/router.js';

/**
 * A group-scoped token is not shell access (issue 20): what an actor runs — its command, env,
 * runtime, profile, and everything else that shapes its launch — is set only by an admin token
 * (or an open Web, or the local CLI). A group token keeps messaging, reading, and starting and
 * stopping actors whose launch an admin or the local user set; an actor whose launch an agent
 * changed since is started by an admin first.
 */

/** Actor fields that decide what process runs, and where, and with which tools. */
export const LAUNCH_FIELDS = ['runtime', 'runtime_mode', 'command', 'env', 'submit', 'default_scope_key', 'capability_autoload', 'runner', 'profile_id'] as const;

export function touchesLaunch(patch: Record<string, unknown>): boolean {
  return LAUNCH_FIELDS.some((key) => key in patch);
}

function needsAdmin(what: string, details: Record<string, unknown> = {}): HttpError {
  return new HttpError(403, 'permission_denied', `${what} needs an admin access token (a group token cannot change what an actor runs)`, { ...details, reason: 'launch_change_requires_admin' });
}

/** actor_add: a new actor is a new command line. */
export function requireAdminToAddActor(ctx: RequestContext): void {
  if (!ctx.isAdmin()) throw needsAdmin('adding an actor');
}

/** actor_update: launch fields, a profile link or conversion need an admin; title, enabled and the like do not. */
export function requireAdminForLaunchPatch(ctx: RequestContext, args: { patch: Record<string, unknown>; profile_id?: string | undefined; profile_action?: string | undefined }): void {
  if (ctx.isAdmin()) return;
  const fields = LAUNCH_FIELDS.filter((key) => key in args.patch);
  if (args.profile_id !== undefined) fields.push('profile_id');
  if (args.profile_action !== undefined) fields.push('profile_id');
  if (fields.length > 0) throw needsAdmin('changing an actor\'s launch', { fields: [...new Set(fields)] });
}

/** actor_env_private_update: private env is part of the launch. */
export function requireAdminForPrivateEnv(ctx: RequestContext): void {
  if (!ctx.isAdmin()) throw needsAdmin('changing an actor\'s private env');
}

const LAUNCH_KINDS = ['actor.add', 'actor.update'];
const PAGE = 200;

/** The actor a launch-shaping event is about, if it is one. */
function launchChangeOf(event: CCCSEventV1): string | undefined {
  if (isEventOfKind(event, 'actor.add')) return event.data.actor.id;
  if (isEventOfKind(event, 'actor.update') && touchesLaunch(event.data.patch)) return event.data.actor_id;
  return undefined;
}

/**
 * Starting actors with a group token: each actor's latest launch-shaping event (its add, or an
 * update of a launch field) must be the user's (`by: "user"`: the local CLI or an admin through
 * the Web). One an agent wrote is refused until an admin starts or re-approves it.
 */
export async function requireApprovedLaunches(client: DaemonClient, ctx: RequestContext, groupId: string, actorIds: readonly string[]): Promise<void> {
  if (ctx.isAdmin() || actorIds.length === 0) return;
  const pending = new Set(actorIds);
  const unapproved: Array<{ actor_id: string; by: string; event_id: string }> = [];
  let before: string | undefined;
  for (;;) {
    const page = await client.call('ledger_tail', { group_id: groupId, kinds: LAUNCH_KINDS, limit: PAGE, ...(before ? { before_event_id: before } : {}) });
    // Newest first: the first launch change seen for an actor is its latest.
    for (const event of [...page.events].reverse()) {
      const actorId = launchChangeOf(event);
      if (!actorId || !pending.has(actorId)) continue;
      pending.delete(actorId);
      if (event.by !== 'user') unapproved.push({ actor_id: actorId, by: event.by, event_id: event.id });
    }
    if (pending.size === 0 || !page.has_more || page.events.length === 0) break;
    before = page.events[0]!.id;
  }
  if (unapproved.length > 0) {
    throw new HttpError(
      403,
      'permission_denied',
      `an agent changed the launch of ${unapproved.map((u) => u.actor_id).join(', ')}; an admin access token must start it, or an admin re-save its launch`,
      { reason: 'launch_not_approved', actors: unapproved },
    );
  }
}
