import type { z } from 'zod';
import { ChatMessageData } from './chat.js';
import { LegacyChatReadData, MailReadData } from './mail.js';
import { ReplyRequestCancelledData } from './reply-request.js';
import { RuntimeDeliveryData } from './delivery.js';
import { SystemNotifyData } from './notify.js';
import { ActorActivityData, ActorAddData, ActorLifecycleData, ActorRemoveData, ActorUpdateData } from './actor.js';
import {
  GroupAttachData,
  GroupCreateData,
  GroupDeleteData,
  GroupDetachScopeData,
  GroupSetActiveScopeData,
  GroupSetStateData,
  GroupSettingsUpdateData,
  GroupAutomationUpdateData,
  GroupStartData,
  GroupStopData,
  GroupUpdateData,
} from './group.js';
import { ContextSyncData } from './context.js';
import { PresentationClearData, PresentationPublishData } from './presentation.js';
import { DELIVERY_CONFIRMATION_KIND, DeliveryConfirmationData } from './delivery-confirmation.js';
import { ACTOR_START_PROBLEM_KIND, ActorStartProblemData } from './actor-start-problem.js';
import { CapabilityChangedData } from './capability.js';
import { HeadlessTurnData } from './headless.js';
import {
  AssistantSettingsUpdateData,
  AssistantStatusUpdateData,
  AssistantVoiceDocumentData,
  AssistantVoicePromptDraftData,
  AssistantVoiceRequestData,
  AssistantVoiceSessionData,
} from './assistant.js';

/**
 * The one definition of each known event kind's `data`: validated at append time, and the source
 * of every typed read (`EventOf<K>`). Kinds not listed (the reference's others, vendor `x.*`)
 * pass unvalidated and are read as open records (reference behaviour).
 */
export const kindDataSchemas = {
  'chat.message': ChatMessageData,
  'chat.read': LegacyChatReadData,
  'mail.read': MailReadData,
  'chat.reply_request.cancelled': ReplyRequestCancelledData,
  'runtime.delivery': RuntimeDeliveryData,
  'system.notify': SystemNotifyData,
  'group.create': GroupCreateData,
  'group.update': GroupUpdateData,
  'group.delete': GroupDeleteData,
  'group.attach': GroupAttachData,
  'group.detach_scope': GroupDetachScopeData,
  'group.set_active_scope': GroupSetActiveScopeData,
  'group.start': GroupStartData,
  'group.stop': GroupStopData,
  'group.set_state': GroupSetStateData,
  'group.settings_update': GroupSettingsUpdateData,
  'group.automation_update': GroupAutomationUpdateData,
  'actor.add': ActorAddData,
  'actor.update': ActorUpdateData,
  'actor.remove': ActorRemoveData,
  'actor.start': ActorLifecycleData,
  'actor.stop': ActorLifecycleData,
  'actor.restart': ActorLifecycleData,
  'actor.new_session': ActorLifecycleData,
  'actor.activity': ActorActivityData,
  'context.sync': ContextSyncData,
  'presentation.publish': PresentationPublishData,
  'presentation.clear': PresentationClearData,
  [DELIVERY_CONFIRMATION_KIND]: DeliveryConfirmationData,
  [ACTOR_START_PROBLEM_KIND]: ActorStartProblemData,
  'capability.changed': CapabilityChangedData,
  'headless.turn.started': HeadlessTurnData,
  'headless.turn.completed': HeadlessTurnData,
  'headless.turn.failed': HeadlessTurnData,
  'assistant.status.update': AssistantStatusUpdateData,
  'assistant.settings.update': AssistantSettingsUpdateData,
  'assistant.voice.document': AssistantVoiceDocumentData,
  'assistant.voice.session': AssistantVoiceSessionData,
  'assistant.voice.request': AssistantVoiceRequestData,
  'assistant.voice.prompt_draft': AssistantVoicePromptDraftData,
} as const satisfies Record<string, z.ZodType<Record<string, unknown>>>;

type KindSchemas = typeof kindDataSchemas;

/** A kind whose `data` the registry defines. */
export type KnownKind = keyof KindSchemas;

/** The `data` of a stored event of kind `K` (unknown fields kept: readers ignore them). */
export type KindData<K extends KnownKind> = z.output<KindSchemas[K]>;

/**
 * What a writer passes as `data` for kind `K`: the kind's input type for a known kind, an open
 * record for any other (vendor) kind. A dynamic `string` kind also falls back to the open record;
 * the append still validates it at run time.
 */
export type KindDataInput<K extends string> = K extends KnownKind ? z.input<KindSchemas[K]> : Record<string, unknown>;

export function isKnownKind(kind: string): kind is KnownKind {
  return Object.hasOwn(kindDataSchemas, kind);
}

/** The schema of a known kind's data, or undefined for an open (vendor or unlisted) kind. */
export function kindDataSchema(kind: string): z.ZodType<Record<string, unknown>> | undefined {
  return isKnownKind(kind) ? kindDataSchemas[kind] : undefined;
}
