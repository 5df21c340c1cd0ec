import { HttpError } from '../http/errors.js';
import type { ApiRoutes } from './api-routes.js';

/** A browser uploads its package bytes; it never names a file on the daemon host. */
function refusePackagePath(_ctx: unknown, args: { package_path?: string | undefined }): void {
  if (args.package_path !== undefined) {
    throw new HttpError(400, 'invalid_request', 'the Web takes package_b64 only; package_path is for local clients', { field: 'package_path' });
  }
}

/** §8.20 copy groups and §8.17 remote access (admin routes, see route-map.ts). */
export function registerCopyRemoteRoutes(api: ApiRoutes): void {
  api.op('group_copy_export');
  api.op('group_copy_preview_import', { authorize: refusePackagePath });
  api.op('group_copy_import', { authorize: refusePackagePath });
  api.op('remote_access_state');
  api.op('remote_access_configure');
  api.op('remote_access_start');
  api.op('remote_access_stop');
}
