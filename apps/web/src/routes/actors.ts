import { queryBool } from '../http/body.js';
import type { ApiRoutes } from './api-routes.js';
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
  api.op('actor_add');
  /** `{patch, profile_id?, profile_action?}`, or the patch fields themselves (POST or PUT). */
  api.op('actor_update', { normalize: (body) => (isRecord(body) && !isRecord(body.patch) ? { patch: withoutIdentity(body) } : body) });
  api.op('actor_remove');
  api.op('actor_start');
  api.op('actor_stop');
  api.op('actor_restart');
  api.op('actor_new_session');
  api.op('actor_env_private_keys');
  api.op('actor_env_private_update');
}

/** A bare patch may repeat the identity keys the path already names; they are not patch fields. */
function withoutIdentity(body: Record<string, unknown>): Record<string, unknown> {
  const { group_id: _g, actor_id: _a, by: _b, ...patch } = body;
  return patch;
}
