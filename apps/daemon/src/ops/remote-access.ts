import { checkPermission, principalOf, RemoteAccessService, type HomeLayout } from '@cccc/groups';
import type { OpRouter } from '@cccc/ipc-protocol';

export interface RemoteAccessOpsDeps {
  readonly layout: HomeLayout;
}

/** §8.17 remote_access_*: thin handlers over @cccc/groups' RemoteAccessService; user only. */
export function registerRemoteAccessOps(router: OpRouter, { layout }: RemoteAccessOpsDeps): void {
  const service = new RemoteAccessService(layout);
  router.register('remote_access_state', () => service.state());
  router.register('remote_access_configure', (args) => {
    checkPermission(principalOf(args.by), 'settings.global');
    const { by: _by, ...patch } = args;
    return service.configure(patch);
  });
  router.register('remote_access_start', (args) => {
    checkPermission(principalOf(args.by), 'settings.global');
    return service.start();
  });
  router.register('remote_access_stop', (args) => {
    checkPermission(principalOf(args.by), 'settings.global');
    return service.stop();
  });
}
