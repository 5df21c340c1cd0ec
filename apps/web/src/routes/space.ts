import type { ApiRoutes } from './api-routes.js';

/** A query value as given, or nothing (the op's schema checks it). */
const param = (url: URL, key: string) => url.searchParams.get(key) ?? undefined;
const optional = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as { [P in K]: V }));
/** `?lane=` as given; a missing or bad lane reaches the op and is refused there. */
const laneOf = (url: URL) => (param(url, 'lane') ?? '') as 'work' | 'memory';

/** §8.18 Group Space routes for the Space tab: thin mappings onto the group_space_* ops (the daemon owns the rules). */
export function registerSpaceRoutes(api: ApiRoutes): void {
  api.op('space_status');
  api.op('space_bind');
  api.op('space_ingest');
  api.op('space_query');
  api.op('space_sources', { query: (url) => ({ lane: laneOf(url) }) });
  api.op('space_jobs', {
    query: (url) => {
      const raw = param(url, 'limit');
      const n = raw === undefined ? undefined : Number(raw);
      return {
        lane: laneOf(url),
        ...optional('state', param(url, 'state') as 'pending' | 'running' | 'succeeded' | 'failed' | 'canceled' | undefined),
        ...optional('limit', n === undefined ? undefined : Number.isInteger(n) ? n : (raw as unknown as number)),
      };
    },
  });
}
