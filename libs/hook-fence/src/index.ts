export { sanitizeToolName, sanitizeId, TOOL_NAME_MAX } from './privacy.js';
export { HOOK_EVENT_NAMES, hookPayloadSchema, parseHookPayload } from './payloads.js';
export type { HookEvent, HookEventName, HookRuntime, ParseResult } from './payloads.js';
export {
  FENCE_HISTORY_CAP,
  HOOK_STATUSES,
  hookStateSchema,
  decodeHookState,
  encodeHookState,
  pendingHookState,
} from './hook-state.js';
export type { HookState, HookStatus, PendingStateInput } from './hook-state.js';
export { applyHookEvent, applyInterrupt } from './fence.js';
export type { FenceContext, FenceRejection, FenceResult } from './fence.js';
export {
  ACTIVITY_KINDS,
  ACTIVITY_STATUSES,
  activityRecordSchema,
  encodeActivityRecord,
  isTerminal,
  projectActivity,
  closesChildren,
} from './activity-record.js';
export type { ActivityDraft, ActivityKind, ActivityRecord, ActivityStatus } from './activity-record.js';
export {
  ACTIVITY_GROUP_LIMIT,
  ACTIVITY_MAX_AGE_MS,
  SNAPSHOT_COMPLETED_WINDOW_MS,
  STUCK_AFTER_MS,
  ActivityOverflowError,
  commitActivity,
  enforceLimits,
  activitySnapshot,
} from './activity-store.js';
export type { ActivityEntry, CommitInput } from './activity-store.js';
export { deriveWorkingState, hookStateIsAuthoritative } from './working-state.js';
export type {
  EffectiveWorkingState,
  InputState,
  LaunchIdentity,
  ManagedStateSource,
  StateSource,
  TurnPhase,
  WorkingState,
  WorkingStateInput,
} from './working-state.js';
export {
  RECORDER_STATES,
  RECORDER_RETENTION_DAYS,
  recorderLatestSchema,
  recorderEntrySchema,
  emptyLatest,
  decodeLatest,
  recordHookEvent,
  pruneLatest,
  dayFileName,
  expiredDayFiles,
} from './recorder.js';
export type { RecorderEntry, RecorderLatest, RecorderLine, RecorderState, RecordResult } from './recorder.js';
export { commitHookEvent, commitInterrupt, decodeActivityStore, encodeActivityStore } from './hook-commit.js';
export type { HookCommit, HookCommitInput, InterruptCommitInput } from './hook-commit.js';
export { launchRecordSchema, decodeLaunchRecord, actorHookKey, newLaunchToken } from './launch-record.js';
export type { LaunchRecord } from './launch-record.js';
