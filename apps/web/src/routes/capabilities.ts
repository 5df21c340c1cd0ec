import type { ApiRoutes } from './api-routes.js';

/** A query value as given, or nothing (the op's schema checks it). */
const param = (url: URL, key: string) => url.searchParams.get(key) ?? undefined;
const optional = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as { [P in K]: V }));
/** `?limit=` as a number when it is one; anything else reaches the op as given and is refused there. */
const limitOf = (url: URL) => {
  const raw = param(url, 'limit');
  if (raw === undefined) return {};
  const n = Number(raw);
  return { limit: Number.isInteger(n) ? n : (raw as unknown as number) };
};

/** §8.3 capability routes: thin mappings onto the capability_* ops (the daemon owns the rules). */
export function registerCapabilityRoutes(api: ApiRoutes): void {
  api.op('capability_overview', {
    query: (url) => ({ ...optional('query', param(url, 'query')), ...optional('include_indexed', param(url, 'include_indexed')), ...limitOf(url) }),
  });
  api.op('capability_allowlist');
  api.op('capability_allowlist_validate');
  api.op('capability_allowlist_update');
  api.op('capability_allowlist_reset');
  api.op('capability_search', {
    query: (url) => ({
      ...optional('query', param(url, 'query')),
      ...optional('kind', param(url, 'kind') as 'mcp_toolpack' | 'skill' | '' | undefined),
      ...optional('actor_id', param(url, 'actor_id')),
      ...optional('include_external', param(url, 'include_external')),
      ...limitOf(url),
    }),
  });
  api.op('capability_state', { query: (url) => ({ ...optional('actor_id', param(url, 'actor_id')), ...optional('capability_id', param(url, 'capability_id')) }) });
  api.op('capability_enable');
  api.op('capability_block');
  api.op('capability_import');
  api.op('capability_uninstall');
}
