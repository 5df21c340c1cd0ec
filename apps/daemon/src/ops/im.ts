import type { OpRouter } from '@cccc/ipc-protocol';
import type { ImService } from '../im/im-service.js';

export interface ImOpsDeps {
  readonly im: ImService;
}

/** §8.16 im_* and the im_config_* extension: thin handlers over the group's IM authority. */
export function registerImOps(router: OpRouter, { im }: ImOpsDeps): void {
  router.register('im_bind_chat', (a) => {
    im.authorize(a.group_id, a.by);
    return im.authority(a.group_id).bind(a.key);
  });
  router.register('im_list_authorized', async (a) => ({ authorized: await im.authority(a.group_id).listAuthorized() }));
  router.register('im_list_pending', async (a) => ({ pending: await im.authority(a.group_id).listPending() }));
  router.register('im_reject_pending', async (a) => {
    im.authorize(a.group_id, a.by);
    return { rejected: await im.authority(a.group_id).reject(a.key) };
  });
  router.register('im_revoke_chat', (a) => {
    im.authorize(a.group_id, a.by);
    return im.authority(a.group_id).revoke(a.chat_id, a.thread_id);
  });
  router.register('im_config_get', (a) => ({ group_id: a.group_id, im: im.view(a.group_id) }));
  router.register('im_config_set', async ({ group_id, by, ...update }) => ({ group_id, im: await im.configure(group_id, by, update) }));
}
