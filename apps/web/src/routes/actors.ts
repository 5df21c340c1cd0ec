import { queryBool } from '../http/body.js';
import type { RequestContext } from '../http/router.js';
import type { ApiRoutes } from './api-routes.js';
import { requireAdminForLaunchPatch, requireAdminForPrivateEnv, requireAdminToAddActor, requireApprovedLaunches } from './launch-approval.js';
import { isRecord } from './groups.js';

/** Actors: list, CRUD, lifecycle, private env keys (§8.2 "Actors"). */
export function registerActorRoutes(api: ApiRoutes): void {
  // Only read here: the flag is parsed so a malformed value is a 400 rather than ignored.
  api.op('actor_list', {
    query: (url) => {
      const include_unread = queryBool(url, 'include_unread');
      return include_unread !== undefined ? { include_unread } : {};
    },
  });
  // What an actor runs is set by an admin (launch-approval.ts); starting checks who set it last.
  api.op('actor_add', { authorize: (ctx) => requireAdminToAddActor(ctx) });
  /** `{patch, profile_id?, profile_action?}`, or the patch fields themselves (POST or PUT). */
  api.op('actor_update', {
    normalize: (body) => (isRecord(body) && !isRecord(body.patch) ? { patch: withoutIdentity(body) } : body),
    authorize: (ctx, args) => requireAdminForLaunchPatch(ctx, args),
  });
  api.op('actor_remove');
  const approved = { authorize: (ctx: RequestContext, args: { group_id: string; actor_id: string }) => requireApprovedLaunches(api.client, ctx, args.group_id, [args.actor_id]) };
  api.op('actor_start', approved);
  api.op('actor_stop');
  api.op('actor_restart', approved);
  api.op('actor_new_session', approved);
  api.op('actor_env_private_keys');
  api.op('actor_env_private_update', { authorize: (ctx) => requireAdminForPrivateEnv(ctx) });
  // The Web answers as `user` (it fills `by`); the daemon checks the exact session generation.
  api.op('headless_control_state');
  api.op('headless_control');
}

/** A bare patch may repeat the identity keys the path already names; they are not patch fields. */
function withoutIdentity(body: Record<string, unknown>): Record<string, unknown> {
  const { group_id: _g, actor_id: _a, by: _b, ...patch } = body;
  return patch;
}
