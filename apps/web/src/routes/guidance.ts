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
}

/** An optional string arg from the query; an empty value counts as absent. */
function optional<K extends string>(url: URL, key: K): { [P in K]?: string } {
  const value = url.searchParams.get(key);
  return (value ? { [key]: value } : {}) as { [P in K]?: string };
}
