// Browser-safe public surface: schemas, codec, router. Node IO lives in `./node`.
export { DaemonRequestV1, DaemonResponseV1, DaemonErrorV1, okResponse, errorResponse } from './envelope.js';
export { ErrorCodes, IpcError, isIpcError, type KnownErrorCode } from './errors.js';
export { DaemonAddrV1 } from './addr.js';
export {
  CCCSEventV1,
  isValidEventOfKind,
  isInputOfKind,
  type EventOf,
  type KnownEvent,
  type EventInput,
  type StoredEvent,
  EventId,
  EventStreamItem,
  EventStreamEventItem,
  EventStreamHeartbeatItem,
  EventStreamErrorItem,
} from './events.js';
export { isEventOfKind } from './event-kind.js';
export * from './kinds/index.js';
export { TermAttachArgs, TermAttachHandshake } from './ops/streams.js';
export {
  GroupIdArg,
  ActorIdArg,
  ProfileIdArg,
  ReplyMessageMode,
  ReferenceV1,
  TaskRefV1,
  PresentationRefV1,
  LinkRefV1,
  InsightText,
  CommandArgv,
  SubmitMode,
  RuntimeMode,
  legacyMessageFields,
  LooseBooleanArg,
} from './ops/shared.js';
export { ActorDoc, ActorListEntry, ActorRole, GroupDoc, GroupState, GroupSummary, ScopeEntry } from './ops/documents.js';
export { ActorPatch } from './ops/actors.js';
export { ActorStartProblem, ActorStartResult } from './ops/start-report.js';
export { ProfileInput } from './ops/profiles.js';
export { ChatMessageEvent, SendResult } from './ops/messaging.js';
export { MailCursor } from './ops/inbox.js';
export { MAX_PREAMBLE_BYTES } from './ops/group-prompts.js';
export { ContextBrief } from './ops/context.js';
export { DedupIntent, MemoryDate, MemoryDedup, MemoryMessage, MemorySearchHit } from './ops/memory.js';
export { SpaceLane, SpaceProviderMode, SpaceBinding, SpaceProviderState, SpaceQueueSummary, SpaceCredential, SpaceJobState, SpaceArtifactKind } from './ops/space.js';
export {
  RecipientStatus,
  RecipientReadStatus,
  RecipientObligationStatus,
  MAX_STATUS_EVENT_IDS,
} from './ops/ledger-read.js';
export { defineOp, type OpSpec, type OpUpgrade } from './ops/define.js';
export {
  opCatalog,
  isOpName,
  type OpCatalog,
  type OpName,
  type OpArgs,
  type OpArgsInput,
  type OpResult,
} from './ops/catalog.js';
export { NdjsonDecoder, encodeLine, encodeLineText, type DecodedLine } from './codec.js';
export { jsonShapeViolation, MAX_JSON_DEPTH, MAX_JSON_NODES, type JsonShapeLimits, type JsonShapeViolation } from './json-limits.js';
export { PreserializedResult } from './preserialized.js';
export { MAX_REQUEST_LINE_BYTES, MAX_RESPONSE_LINE_BYTES } from './limits.js';
export { OpRouter, type OpHandler, type RequestContext, type Dispatched, type RouterOptions } from './router.js';
export { loopbackConnection, type LoopbackConnection } from './loopback.js';
export { StreamUpgrade, isStreamUpgrade, type UpgradedConnection } from './upgrade.js';
export { RuntimeActivityRecord, RuntimeActivityStreamItem, RuntimeHookPayload, RUNTIME_HOOK_PAYLOAD_KEYS } from './ops/hooks.js';
export { BLOB_NAME_PATTERN, BlobUploadOutcome, MAX_BLOB_UPLOAD_BYTES } from './ops/blobs.js';
export { RuntimeListEntry, RuntimeTransport } from './ops/runtime.js';
export { HermesStatus } from './ops/hermes.js';
export { HeadlessControlState, HeadlessPermission, HeadlessControlAction, HeadlessStatusValue } from './ops/headless.js';
export { BrandingSettings, ObservabilitySettings } from './ops/observability.js';
export { LOG_COMPONENTS } from './ops/diagnostics.js';
export {
  PresentationCard,
  PresentationContent,
  PresentationPublishArgs,
  PresentationSnapshot,
  PresentationTable,
} from './ops/presentation.js';
export {
  AutomationTrigger,
  AutomationAction,
  AutomationRule,
  AutomationRuleSet,
  AutomationRuleStatus,
  AutomationView,
  AutomationManageAction,
  NotifyRuleAction,
} from './ops/automation.js';
export { CapabilityEnableResult, CapabilityImportRecord, CapabilityKind, EnableScope, BlockScope, PolicyLevel, QualificationStatus, RemovableSourceId } from './ops/capabilities.js';
