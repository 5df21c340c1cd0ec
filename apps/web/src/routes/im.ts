import type { ApiRoutes } from './api-routes.js';

/** §8.16 IM routes for the IM settings panel: thin mappings onto the im_* ops (the daemon owns the rules). */
export function registerImRoutes(api: ApiRoutes): void {
  api.op('im_config');
  api.op('im_config_set');
  api.op('im_pending');
  api.op('im_authorized');
  api.op('im_bind');
  api.op('im_reject');
  api.op('im_revoke');
}
