export { VoiceErrorCodes, voiceError, type VoiceErrorCode } from './errors.js';
export { safePathComponent, safeDocumentPath, resolveWithoutSymlinks } from './safe-path.js';
export { assertVoiceWriter, VOICE_ACTOR_ID, VOICE_PRINCIPAL } from './permissions.js';
export type { LeaseAction, LeaseRecord, LeaseRequest, LeaseResult, PublicLease, RecordingLeaseStore } from './lease/lease-types.js';
export { decideLease, leaseTtlSeconds, publicLease, LEASE_TTL_DEFAULT_SECONDS, LEASE_TTL_MAX_SECONDS, LEASE_TTL_MIN_SECONDS, type LeaseDecision } from './lease/lease-core.js';
export { FileLeaseStore, LEASE_FILE, type FileLeaseStoreOptions } from './lease/file-lease-store.js';
export { MemoryLeaseStore } from './lease/memory-lease-store.js';
export { assistantRecord, voiceSettingsOf, DEFAULT_VOICE_CONFIG, VOICE_ASSISTANT_ID, type AssistantWorkflow, type VoiceConfig, type VoiceSettings } from './assistant/assistant-record.js';
export { assistantsFilePath, readAssistantsFile, voiceWorkflowOf } from './assistant/assistants-file.js';
export { documentSessionView, isDocumentTranscriptSegment, transcriptText, voiceSessionView } from './session/session-view.js';
export { durableHealth, updateAssistantsFile, withVoiceStatus, VOICE_LIFECYCLES, type VoiceLifecycle } from './assistant/assistant-status.js';
export { applyVoiceSettingsPatch, assertVoiceConfigPatch, voiceSecretaryActorFrom, type VoiceSettingsPatch } from './assistant/voice-settings-patch.js';
export {
  archiveDocument,
  emptyIndex,
  findDocument,
  liveDocument,
  markDeleted,
  reconcileIndex,
  saveDocument,
  sha256,
  type DocumentIndex,
  type DocumentStatus,
  type LibraryFolder,
  type Stamp,
  type VoiceDocument,
} from './documents/document-index.js';
export { applyLibraryAction, libraryView, type LibraryAction, type LibraryView } from './documents/library.js';
export { DocumentIndexStore, newStamp, voiceDocumentsDir } from './documents/document-store.js';
export { discoverMarkdown, moveAside, readDocumentFile, writeDocumentFile, type DocumentRoot } from './documents/document-files.js';
export {
  MAX_SESSION_RECORDS,
  pruneSessions,
  recordedCompletion,
  validateSessionUpdate,
  withClearedTranscript,
  withCompletion,
  withSessionPatch,
  type CompletionEvent,
  type SessionPatch,
} from './session/session-update.js';
export { InputLog, type InputRecord, type InputState } from './input/input-log.js';
export { inputView, type InputView } from './input/input-envelope.js';
export { withAskFeedback, withAsksCleared, type AskFeedback, type AskStatus } from './ask/ask-requests.js';
export { IDLE_REVIEW_COOLDOWN_MS, IDLE_REVIEW_FLUSH_THRESHOLD, idleReviewAfterInput, idleReviewOnStop, idleReviewText, type IdleReviewReason, type IdleReviewState } from './input/idle-review.js';
export {
  checkTranscriptAppend,
  isRaceLateLive,
  MAX_SESSION_SEGMENTS,
  MAX_TRANSCRIPT_CHARS,
  resolveSupersedes,
  sessionOf,
  STOP_TRIGGER_KINDS,
  withTranscriptSegment,
  type CheckedAppend,
  type SessionAppendOutcome,
  type TranscriptAppendArgs,
  type WindowConfig,
} from './session/transcript-append.js';
export { appendSegmentOnce, documentTranscriptPath, readJsonl, sessionSegmentsPath } from './session/transcript-files.js';
export {
  activePromptDraft,
  DEFAULT_PROMPT_OPERATION,
  MAX_PROMPT_RECORDS,
  publicDraft,
  withDraftAcked,
  withDraftSubmitted,
  withPromptRequest,
  type DraftAckStatus,
  type DraftSubmission,
  type PromptRequestInput,
} from './prompt/prompt-drafts.js';
export { loadVoiceModelManifest, overlayManifestPath, VoiceModelEntry, VoiceModelManifest, type StreamingModelConfig, type VoiceModelArtifact } from './models/manifest.js';
export { modelPaths, voiceModelsRoot, type ModelPaths } from './models/model-paths.js';
export { manifestSha256, voiceModelRecord, type VoiceModelRecord, type VoiceModelStatus } from './models/model-status.js';
export { findVoiceModel, installVoiceModel, type InstallOptions } from './models/install.js';
export { RECOGNITION_BACKENDS, SHERPA_RUNTIME_ID, type RecognitionBackend } from './asr/asr-backends.js';
export { decodeAudio, decodeWav, encodeWav, pcm16ToFloat, type Waveform } from './asr/pcm.js';
export { LocalAsrEngine, type AsrStream, type EngineState, type LoadableModel, type LocalAsrEngineOptions } from './asr/local-asr-engine.js';
export { serviceHealth, type Missing, type ServiceHealth, type ServiceHealthInput } from './asr/service-health.js';
export { VoiceAsrService } from './asr/voice-asr-service.js';
