import type { OpRouter } from '@cccc/ipc-protocol';
import type { Kernel } from '../kernel/kernel.js';

/** §8.6 message_deliver: promote Mail or retry blocked work (rules in DeliveryService). */
export function registerDeliveryOps(router: OpRouter, kernel: Kernel): void {
  router.register('message_deliver', (args) => kernel.delivery.deliverExplicit(args));
}
