import type { ApiRoutes } from './api-routes.js';

/**
 * The runtime activity snapshot (seed `pty-runtime-activity.md`) as `{ok, result: {events}}`: a
 * corrupt store answers `runtime_activity_unavailable` (503), never a partial view. The stream is
 * in streams.ts.
 */
export function registerRuntimeActivityRoutes(api: ApiRoutes): void {
  api.op('runtime_activity_snapshot');
}
