import { IpcError } from '@cccc/ipc-protocol';

/**
 * Stable wire codes of the Voice Secretary ops (spec §8.3, `assistant_*`). The names follow the
 * reference daemon's answers, so a Web client written against it matches on the same codes.
 */
export const VoiceErrorCodes = {
  /** Another live recording lease exists; `details.active_lease` is its public (redacted) form. */
  recordingBusy: 'assistant_voice_recording_busy',
  /** acquire / heartbeat / release without an owner_id. */
  missingOwnerId: 'missing_owner_id',
  /** heartbeat / release without the lease_id acquire returned. */
  missingLeaseId: 'missing_lease_id',
  /** Voice Secretary is disabled and the request is not a composer dictation. */
  assistantDisabled: 'assistant_disabled',
  /** assistant_id names no built-in assistant. */
  assistantNotFound: 'assistant_not_found',
  /** The caller may not change Voice Secretary state (a peer, or an unknown actor). */
  permissionDenied: 'permission_denied',
  /** A session / document id or document path that is not one safe path component / a safe repo-relative .md path. */
  invalidPath: 'invalid_path',
  /** A settings value the spec does not allow (`details.field`). */
  invalidRequest: 'invalid_request',
  /** Enabling Voice Secretary needs a foreman whose runtime configuration the actor copies. */
  foremanMissing: 'voice_secretary_foreman_missing',
  /** The voice-secretary actor did not start (settings, actor and private env were rolled back). */
  startFailed: 'voice_secretary_start_failed',
  /** No registered working document at that document_path. */
  documentNotFound: 'voice_document_not_found',
  /** The document was deleted: it is never saved, archived or restored again. */
  documentDeleted: 'voice_document_deleted',
  /** A document delete while the group holds a recording lease. */
  recordingActive: 'voice_recording_active',
  /** A library folder id that does not exist. */
  folderNotFound: 'voice_folder_not_found',
  /** A library folder name already used in the group. */
  folderExists: 'voice_folder_exists',
  /** No Ask request with that request_id. */
  askRequestNotFound: 'voice_ask_request_not_found',
  /** Ask feedback from anyone but the voice-secretary actor / assistant principal. */
  feedbackForbidden: 'assistant_voice_instruction_feedback_forbidden',
  /** No composer refinement request with that request_id (prompt_draft_submit). */
  promptRequestNotFound: 'prompt_request_not_found',
  /** No submitted prompt draft with that request_id (prompt_draft_ack). */
  promptDraftNotFound: 'prompt_draft_not_found',
  /** A prompt draft from anyone but the voice-secretary actor / assistant principal. */
  promptDraftForbidden: 'assistant_voice_prompt_draft_forbidden',
  /** A voice model manifest (built-in or CCCC_HOME/config/voice-models.json) that does not parse. */
  modelManifestInvalid: 'voice_model_manifest_invalid',
  /** model_id names no model of the effective manifest. */
  modelNotFound: 'voice_model_not_found',
  /** Another install of the same model is running (it holds the install lock). */
  modelInstallBusy: 'voice_model_install_busy',
  /** An artifact could not be fetched (network, file, timeout, or more bytes than declared). */
  modelDownloadFailed: 'voice_model_download_failed',
  /** An artifact's size differs from the manifest. */
  modelSizeMismatch: 'voice_model_size_mismatch',
  /** An artifact's sha256 differs from the manifest. */
  modelHashMismatch: 'voice_model_hash_mismatch',
  /** An archive artifact holds an entry that may not be extracted (absolute path, `..`, link, device). */
  modelArchiveUnsafe: 'voice_model_archive_unsafe',
  /** An archive artifact does not decompress / parse, or lacks a file the recognizer names. */
  modelArchiveInvalid: 'voice_model_archive_invalid',
  /** The verified staging directory could not be switched in. */
  modelReplaceFailed: 'voice_model_replace_failed',
  /** Service-local ASR needs an installed model and none is (details say which). */
  modelNotInstalled: 'voice_model_not_installed',
  /** The ASR runtime is not usable: binding not loadable, engine crashed, or wrong backend. */
  asrRuntimeNotReady: 'asr_runtime_not_ready',
  /** The recognizer is busy with another request (fail fast, as the spec allows for HTTP). */
  asrBusy: 'asr_busy',
  /** Audio the endpoint cannot decode (not mono 16-bit PCM / WAV). */
  invalidAudio: 'invalid_audio',
  /** An audio body (or a WebSocket session) past its byte bound. */
  audioTooLarge: 'audio_too_large',
  /** The lease / state files could not be read or written. */
  ioError: 'io_error',
} as const;

export type VoiceErrorCode = (typeof VoiceErrorCodes)[keyof typeof VoiceErrorCodes];

export function voiceError(code: VoiceErrorCode, message: string, details: Record<string, unknown> = {}): IpcError {
  return new IpcError(code, message, details);
}
