// Data schemas of CCCS v1 event kinds (one file per kind family).
export { MessageMode, AttachmentRefV1, ChatMessageData } from './chat.js';
export { MailReadData, LegacyChatReadData } from './mail.js';
export { ReplyRequestCancelledData } from './reply-request.js';
export { DeliveryState, RuntimeDeliveryData } from './delivery.js';
export { NotifyPriority, SystemNotifyData } from './notify.js';
export {
  ActorAddData,
  ActorActivityData,
  ActorActivityEntry,
  ActorLifecycleData,
  ActorRemoveData,
  ActorUpdateData,
  EffectiveWorkingState,
} from './actor.js';
export {
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
export { ContextSyncData } from './context.js';
export {
  PRESENTATION_SLOT_IDS,
  PresentationSlotId,
  PresentationCardType,
  PresentationPublishData,
  PresentationClearData,
} from './presentation.js';
export {
  DELIVERY_CONFIRMATION_KIND,
  DeliveryConfirmationState,
  DeliveryConfirmationData,
} from './delivery-confirmation.js';
export { ACTOR_START_PROBLEM_KIND, ActorStartProblemData } from './actor-start-problem.js';
export { kindDataSchemas, kindDataSchema, isKnownKind, type KnownKind, type KindData, type KindDataInput } from './registry.js';
export { CapabilityChangedData } from './capability.js';
export {
  AssistantSettingsUpdateData,
  AssistantStatusUpdateData,
  AssistantVoiceDocumentData,
  AssistantVoicePromptDraftData,
  AssistantVoiceRequestData,
  AssistantVoiceSessionData,
} from './assistant.js';
export { HeadlessTurnData } from './headless.js';
