import type { ApiRoutes } from './api-routes.js';

/**
 * Settings › Guidance (the group's startup preamble, its effective help, actor notes) and
 * Settings › Profiles (the global actor profiles, admin only: they are shared by every group).
 * Plain op routes: the daemon validates and authorizes; the Web fills `by: "user"`.
 */
export function registerGuidanceRoutes(api: ApiRoutes): void {
  api.op('group_preamble');
  api.op('group_preamble_set');
  api.op('group_preamble_reset');
  /** `?actor_id=` reads the help as that actor sees it (role and actor blocks applied). */
  api.op('group_help', { query: (url) => optional(url, 'actor_id') });
  /** `?target_actor_id=` reads one actor's note; without it, every note. */
  api.op('actor_notes', { query: (url) => optional(url, 'target_actor_id') });
  api.op('actor_notes_set');
  api.op('actor_notes_clear');
  api.op('actor_profiles');
  api.op('actor_profile_upsert');
  api.op('actor_profile');
  api.op('actor_profile_delete');
  // Key names only: the masked previews stay in the daemon, so no part of a value reaches a browser.
  api.op('actor_profile_secret_keys', { result: (r) => ({ profile_id: r.profile_id, keys: r.keys, masked_values: {} }) });
  api.op('actor_profile_secret_update');
}

/** An optional string arg from the query; an empty value counts as absent. */
function optional<K extends string>(url: URL, key: K): { [P in K]?: string } {
  const value = url.searchParams.get(key);
  return (value ? { [key]: value } : {}) as { [P in K]?: string };
}
