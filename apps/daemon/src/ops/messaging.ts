import type { OpRouter } from '@cccc/ipc-protocol';
import type { MessagingService } from '../messaging/messaging-service.js';

export interface MessagingOpsDeps {
  readonly messaging: MessagingService;
}

/** §8.6 and §8.10: thin handlers over the messaging service. */
export function registerMessagingOps(router: OpRouter, { messaging }: MessagingOpsDeps): void {
  router.register('send', (args) => messaging.sendAnswer(args));
  router.register('reply', (args) => messaging.reply(args));
  router.register('send_files', (args) => messaging.sendFiles(args));
  router.register('send_cross_group', (args) => messaging.sendCrossGroup(args));
  router.register('reply_request_cancel', (args) => messaging.cancelReplyRequest(args));
  router.register('message_upload_preflight', (args) => messaging.preflight(args));
  router.register('system_notify', (args) => messaging.notify(args));
}
