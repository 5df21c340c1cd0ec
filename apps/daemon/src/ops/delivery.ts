import type { OpRouter } from '@cccc/ipc-protocol';
import type { DeliveryService } from '../delivery/delivery-service.js';

export interface DeliveryOpsDeps {
  readonly delivery: Pick<DeliveryService, 'deliverExplicit'>;
}

/** §8.6 message_deliver: promote Mail or retry blocked work (rules in DeliveryService). */
export function registerDeliveryOps(router: OpRouter, deps: DeliveryOpsDeps): void {
  router.register('message_deliver', (args) => deps.delivery.deliverExplicit(args));
}
