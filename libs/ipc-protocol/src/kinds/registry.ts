import type { z } from 'zod';
import { ChatMessageData } from './chat.js';
import { MailReadData } from './mail.js';
import { ReplyRequestCancelledData } from './reply-request.js';
import { RuntimeDeliveryData } from './delivery.js';
import { SystemNotifyData } from './notify.js';
import { ActorActivityData, ActorAddData } from './actor.js';
import { DELIVERY_CONFIRMATION_KIND, DeliveryConfirmationData } from './delivery-confirmation.js';
import { ACTOR_START_PROBLEM_KIND, ActorStartProblemData } from './actor-start-problem.js';

/** Kinds whose `data` is validated at append time; unknown kinds pass (reference behaviour). */
export const kindDataSchemas: Readonly<Record<string, z.ZodType>> = {
  'chat.message': ChatMessageData,
  'mail.read': MailReadData,
  'chat.reply_request.cancelled': ReplyRequestCancelledData,
  'runtime.delivery': RuntimeDeliveryData,
  'system.notify': SystemNotifyData,
  'actor.add': ActorAddData,
  'actor.activity': ActorActivityData,
  [DELIVERY_CONFIRMATION_KIND]: DeliveryConfirmationData,
  [ACTOR_START_PROBLEM_KIND]: ActorStartProblemData,
};
