import type { OpRouter } from '@cccc/ipc-protocol';
import type { Kernel } from '../kernel/kernel.js';
import { MessagingService } from '../messaging/messaging-service.js';

/**
 * §8.6 and §8.10: thin handlers over the messaging service. Results carry ledger events whose
 * `kind` the catalog narrows to a literal; the service returns them as stored, hence `as never`.
 */
export function registerMessagingOps(router: OpRouter, kernel: Kernel): void {
  const messaging = new MessagingService(kernel);
  router.register('send', async (args) => (await messaging.send(args)) as never);
  router.register('reply', async (args) => (await messaging.reply(args)) as never);
  router.register('send_files', async (args) => (await messaging.sendFiles(args)) as never);
  router.register('send_cross_group', async (args) => (await messaging.sendCrossGroup(args)) as never);
  router.register('reply_request_cancel', async (args) => (await messaging.cancelReplyRequest(args)) as never);
  router.register('message_upload_preflight', async (args) => (await messaging.preflight(args)) as never);
  router.register('system_notify', async (args) => (await messaging.notify(args)) as never);
}
