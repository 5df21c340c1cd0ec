import { z } from 'zod';
import { CCCSEventV1 } from '../events.js';
import { defineOp } from './define.js';
import { ByArg, GroupIdArg, LooseBooleanArg } from './shared.js';

// §8.3 built-in assistants (Voice Secretary). Records the spec leaves open are JSON objects.

const Json = z.record(z.string(), z.unknown());

/**
 * assistant_state: the group's built-in assistants (today the Voice Secretary). An
 * `assistant_id` other than `voice_secretary` is `assistant_not_found` (handler), not a schema
 * error, as in the reference. `view: "voice_session"` answers the session projection instead.
 */
export const assistant_state = defineOp({
  summary: 'Read the group-scoped state of the built-in assistants (Voice Secretary).',
  args: () => z.object({
    group_id: GroupIdArg,
    assistant_id: z.string().optional(),
    view: z.string().optional(),
    session_id: z.string().optional(),
    document_path: z.string().optional(),
    suppress_retry_notify: LooseBooleanArg.optional(),
  }),
  result: () => z.object({
    group_id: z.string(),
    assistants: z.array(Json).optional(),
    assistants_by_id: Json.optional(),
    assistant: Json.optional(),
    proposals: z.array(Json).optional(),
    proposals_by_id: Json.optional(),
    documents: z.array(Json).optional(),
    documents_by_path: Json.optional(),
    active_document_path: z.string().optional(),
    capture_target_document_path: z.string().optional(),
    documents_by_id: Json.optional(),
    active_document_id: z.string().optional(),
    capture_target_document_id: z.string().optional(),
    new_input_available: z.boolean().optional(),
    service_runtime: Json.optional(),
    service_models: z.array(Json).optional(),
    service_models_by_id: Json.optional(),
    /** view="voice_session": the session projection, or `{}` when there is none. */
    session: Json.optional(),
  }),
});

export const VoiceLeaseAction = z.enum(['acquire', 'heartbeat', 'release', 'status']);

/** The public lease: never its `lease_id`. */
export const PublicVoiceLease = z.object({
  owner_id: z.string(),
  group_id: z.string(),
  group_title: z.string().optional(),
  capture_mode: z.string().optional(),
  recognition_backend: z.string().optional(),
  dispatch_target: z.string().optional(),
  by: z.string().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  expires_at: z.string().optional(),
});

/**
 * assistant_voice_recording_lease: the daemon-owned, TTL-based guard that keeps two Voice
 * Secretary recordings from running at once (one lease per CCCC_HOME). owner_id / lease_id
 * requirements depend on the action and are answered by the handler (`missing_owner_id`,
 * `missing_lease_id`); a conflict is `assistant_voice_recording_busy` with `details.active_lease`.
 */
export const assistant_voice_recording_lease = defineOp({
  summary: 'Acquire, refresh, release or inspect the Voice Secretary recording lease.',
  args: () => z.object({
    group_id: GroupIdArg,
    by: ByArg,
    action: VoiceLeaseAction,
    owner_id: z.string().optional(),
    lease_id: z.string().optional(),
    ttl_seconds: z.number().optional(),
    capture_mode: z.string().optional(),
    recognition_backend: z.string().optional(),
    dispatch_target: z.string().optional(),
  }),
  result: () => z.object({
    group_id: z.string(),
    action: VoiceLeaseAction,
    acquired: z.boolean(),
    released: z.boolean(),
    lost: z.boolean(),
    lease_id: z.string().optional(),
    lease: PublicVoiceLease.optional(),
  }),
});

export const VoiceLifecycle = z.enum(['disabled', 'idle', 'running', 'working', 'waiting', 'failed']);

/**
 * assistant_status_update: the assistant's durable lifecycle / health in state/assistants.json,
 * plus an `assistant.status.update` event. Live process observations in `health` (actor, pid,
 * port, socket) are not persisted.
 */
export const assistant_status_update = defineOp({
  summary: 'Update the lifecycle / health of a built-in assistant (Voice Secretary).',
  args: () => z.object({
    group_id: GroupIdArg,
    by: ByArg,
    assistant_id: z.string().min(1),
    lifecycle: VoiceLifecycle,
    health: Json.optional(),
  }),
  result: () => z.object({ group_id: z.string(), assistant: Json, event: CCCSEventV1 }),
});

export const VoiceRecognitionBackend = z.enum(['mock', 'assistant_service_local_asr', 'browser_asr', 'external_provider_asr']);

/** The Voice Secretary settings a caller may patch (group.yaml:assistants.voice_secretary). */
export const VoiceSettingsPatch = z.object({
  enabled: z.boolean().optional(),
  config: z
    .object({
      capture_mode: z.enum(['browser', 'service']).optional(),
      recognition_backend: VoiceRecognitionBackend.optional(),
      recognition_language: z.string().min(1).optional(),
      retention_ttl_seconds: z.number().nonnegative().optional(),
      auto_document_enabled: z.boolean().optional(),
      document_default_dir: z.string().optional(),
      auto_document_quiet_ms: z.number().int().nonnegative().optional(),
      auto_document_min_chars: z.number().int().nonnegative().optional(),
      auto_document_max_window_seconds: z.number().nonnegative().optional(),
      service_model_id: z.string().optional(),
      tts_enabled: z.boolean().optional(),
    })
    .optional(),
});

/**
 * assistant_settings_update: Voice Secretary settings. `enabled: true` materializes the hidden
 * `voice-secretary` actor from the foreman's runtime config (`voice_secretary_foreman_missing`
 * without one) and starts it when the group runs (`voice_secretary_start_failed`, everything
 * rolled back, when it does not stay up); `enabled: false` stops and removes it and its private env.
 */
export const assistant_settings_update = defineOp({
  summary: 'Update the Voice Secretary settings (and its hidden voice-secretary actor).',
  args: () => z.object({ group_id: GroupIdArg, by: ByArg, assistant_id: z.string().min(1), patch: VoiceSettingsPatch }),
  result: () => z.object({ group_id: z.string(), assistant: Json, event: CCCSEventV1, actor_started: z.boolean().optional() }),
});

const DocResult = z.object({ group_id: z.string(), document: Json, event: CCCSEventV1 });
const LibraryResult = z.object({
  folders: z.array(z.object({ folder_id: z.string(), name: z.string() })),
  root_order: z.array(z.string()),
  documents: z.array(Json),
});

/** assistant_voice_document_list: reconciles repository edits (and discovers new .md files) before answering. */
export const assistant_voice_document_list = defineOp({
  summary: 'List the Voice Secretary working documents (reconciled with the repository).',
  args: () => z.object({ group_id: GroupIdArg, include_archived: LooseBooleanArg.optional() }),
  result: () => z.object({
    group_id: z.string(),
    documents: z.array(Json),
    documents_by_id: Json,
    documents_by_path: Json,
    active_document_id: z.string().optional(),
    capture_target_document_id: z.string().optional(),
    active_document_path: z.string().optional(),
    capture_target_document_path: z.string().optional(),
  }),
});

/** assistant_voice_document_save: Web's write of a working document (repository Markdown), registered and selected. */
export const assistant_voice_document_save = defineOp({
  summary: 'Save or create a Voice Secretary working Markdown document.',
  args: () => z.object({
    group_id: GroupIdArg,
    by: ByArg,
    document_path: z.string().optional(),
    workspace_path: z.string().optional(),
    title: z.string().optional(),
    content: z.string().optional(),
    status: z.enum(['active', 'archived']).optional(),
    create_new: LooseBooleanArg.optional(),
  }),
  result: () => DocResult,
});

export const assistant_voice_document_archive = defineOp({
  summary: 'Archive a Voice Secretary working document (the file stays).',
  args: () => z.object({ group_id: GroupIdArg, by: ByArg, document_path: z.string().min(1) }),
  result: () => DocResult,
});

export const assistant_voice_document_delete = defineOp({
  summary: 'Delete a registered Voice Secretary document file and mark its entry deleted.',
  args: () => z.object({ group_id: GroupIdArg, by: ByArg, document_path: z.string().min(1) }),
  result: () => DocResult,
});

export const assistant_voice_document_library = defineOp({
  summary: 'Read the Voice Secretary library (folders, order, non-deleted documents).',
  args: () => z.object({ group_id: GroupIdArg }),
  result: () => LibraryResult,
});

export const assistant_voice_document_library_update = defineOp({
  summary: 'Update Voice Secretary library metadata or restore an archived document.',
  args: () => z.object({
    group_id: GroupIdArg,
    by: ByArg,
    action: z.enum(['create_folder', 'rename_folder', 'remove_folder', 'reorder_root', 'rename', 'move', 'restore']),
    name: z.string().optional(),
    folder_id: z.string().optional(),
    document_path: z.string().optional(),
    root_order: z.array(z.string()).optional(),
  }),
  result: () => LibraryResult,
});

/** assistant_voice_session_update: a Web-owned completion projection (diarization) into the canonical session. */
export const assistant_voice_session_update = defineOp({
  summary: 'Persist a Voice Secretary session projection (diarization completion).',
  args: () => z.object({
    group_id: GroupIdArg,
    session_id: z.string().min(1),
    by: ByArg,
    completion_event: z.enum(['diarization_ready', 'diarization_failed']).optional(),
    patch: z.object({
      status: z.string().optional(),
      document_path: z.string().optional(),
      audio_duration_ms: z.number().nonnegative().optional(),
      diarization_ready: z.boolean().optional(),
      diarization_artifact_path: z.string().optional(),
      diarization: Json.optional(),
      diarization_error: Json.optional(),
      error: Json.nullable().optional(),
      latest_partial: z.string().optional(),
    }),
  }),
  result: () => z.object({ group_id: z.string(), session: Json, completion_event_id: z.string().optional() }),
});

/** assistant_voice_session_transcript_clear: clear a session's display transcript and its document transcript. */
export const assistant_voice_session_transcript_clear = defineOp({
  summary: 'Clear a Voice Secretary session transcript (document Markdown is kept).',
  args: () => z.object({ group_id: GroupIdArg, session_id: z.string().optional(), document_path: z.string().optional(), by: ByArg }),
  result: () => z.object({ group_id: z.string(), session_id: z.string(), cleared: z.boolean() }),
});

/** assistant_voice_document_instruction: a user instruction for one active document, into the Voice Secretary input stream. */
export const assistant_voice_document_instruction = defineOp({
  summary: 'Append a user instruction for one Voice Secretary document to its input stream.',
  args: () => z.object({
    group_id: GroupIdArg,
    by: ByArg,
    document_path: z.string().min(1),
    request_id: z.string().optional(),
    input_append_id: z.string().optional(),
    instruction: z.string().optional(),
    source_text: z.string().optional(),
    trigger: Json.optional(),
  }),
  result: () => z.object({
    group_id: z.string(),
    assistant: Json.optional(),
    document: Json,
    request_id: z.string(),
    input_append_id: z.string().optional(),
    ask_request: Json.optional(),
    input_event: Json.optional(),
    input_event_created: z.boolean().optional(),
    input_notify_emitted: z.boolean().optional(),
    input_notify_error: z.string().optional(),
    actor_woken: z.boolean().optional(),
    actor_wake_error: z.string().optional(),
    actor_notify_delivered: z.boolean().optional(),
    actor_notify_delivery_error: z.string().optional(),
    event: CCCSEventV1.optional(),
  }),
});

/** assistant_voice_document_input_read: unread inputs since the last read; reading advances the daemon's cursor. */
export const assistant_voice_document_input_read = defineOp({
  summary: 'Read the unread Voice Secretary input (advances the daemon-owned cursor).',
  args: () => z.object({ group_id: GroupIdArg, by: ByArg }),
  result: () => z.object({
    group_id: z.string(),
    item_count: z.number().int().nonnegative(),
    document_count: z.number().int().nonnegative(),
    input_text: z.string(),
    input_batches: z.array(
      z.object({
        document_path: z.string(),
        filename: z.string().optional(),
        title: z.string().optional(),
        item_count: z.number().int().nonnegative(),
        kinds: z.array(z.string()).optional(),
        intent_hints: z.array(z.string()).optional(),
        languages: z.array(z.string()).optional(),
        sources: z.array(z.string()).optional(),
      }),
    ),
    documents: z.array(Json),
    has_new_input: z.boolean(),
  }),
});

/** assistant_voice_instruction_feedback: progress / result of an Ask, from the voice-secretary actor or principal only. */
export const assistant_voice_instruction_feedback = defineOp({
  summary: 'Report progress or the result of a Voice Secretary Ask (voice-secretary only).',
  args: () => z.object({
    group_id: GroupIdArg,
    by: ByArg,
    request_id: z.string().min(1),
    status: z.enum(['working', 'done', 'needs_user', 'failed']),
    reply_text: z.string().optional(),
    result_text: z.string().optional(),
    message: z.string().optional(),
    document_path: z.string().optional(),
    artifact_paths: z.array(z.string()).optional(),
    source_summary: z.string().optional(),
    checked_at: z.string().optional(),
    source_urls: z.array(z.string()).optional(),
  }),
  result: () => z.object({ group_id: z.string(), assistant: Json, ask_request: Json, event: CCCSEventV1 }),
});

/** assistant_voice_ask_requests_clear: hide Ask history (display only; in-flight asks still accept feedback). */
export const assistant_voice_ask_requests_clear = defineOp({
  summary: 'Hide Voice Secretary Ask history from the projection.',
  args: () => z.object({ group_id: GroupIdArg, keep_active: LooseBooleanArg.optional(), by: ByArg }),
  result: () => z.object({
    group_id: z.string(),
    assistant: Json,
    ask_requests: z.array(Json),
    latest_ask_request: Json.optional(),
    cleared_count: z.number().int().nonnegative(),
    removed_count: z.number().int().nonnegative(),
    kept_count: z.number().int().nonnegative(),
  }),
});

/**
 * assistant_voice_request: the Voice Secretary hands actionable work to @foreman or one concrete
 * actor (never a broadcast) as an `assistant.voice.request` event plus a targeted system.notify
 * (context.kind "voice_secretary_action_request").
 */
export const assistant_voice_request = defineOp({
  summary: 'Send a structured Voice Secretary action request to @foreman or one actor.',
  args: () => z.object({
    group_id: GroupIdArg,
    by: ByArg,
    target: z.string().optional(),
    request_text: z.string().min(1),
    summary: z.string().optional(),
    document_path: z.string().optional(),
    artifact_paths: z.array(z.string()).optional(),
    source_event_id: z.string().optional(),
    priority: z.enum(['low', 'normal', 'high', 'urgent']).optional(),
  }),
  result: () => z.object({ group_id: z.string(), assistant: Json, request: Json, notify_event: CCCSEventV1, event: CCCSEventV1 }),
});

const DeliveryFields = {
  input_event: Json.optional(),
  input_event_created: z.boolean(),
  input_notify_emitted: z.boolean(),
  input_notify_error: z.string().optional(),
  actor_woken: z.boolean().optional(),
  actor_wake_error: z.string().optional(),
  actor_notify_delivered: z.boolean().optional(),
  actor_notify_delivery_error: z.string().optional(),
};

/**
 * assistant_voice_transcript_append: one stable transcript segment (browser / service ASR) into
 * the session and document sidecars, the bounded session projection, and (compacted) the
 * Voice Secretary input stream with its targeted notify. Idempotent on session_id + segment_id.
 * Revision metadata (transcript_stage, supersedes_segment_ids, supersede_stage "live",
 * source_model_id, revision_only) is accepted on stable final segments.
 */
export const assistant_voice_transcript_append = defineOp({
  summary: 'Append a stable Voice Secretary transcript segment (and its semantic input).',
  args: () => z.object({
    group_id: GroupIdArg,
    by: ByArg,
    session_id: z.string().min(1),
    segment_id: z.string().optional(),
    text: z.string().optional(),
    language: z.string().optional(),
    document_path: z.string().optional(),
    is_final: LooseBooleanArg.optional(),
    flush: LooseBooleanArg.optional(),
    trigger: z
      .object({
        trigger_kind: z.string().optional(),
        mode: z.string().optional(),
        capture_mode: z.string().optional(),
        recognition_backend: z.string().optional(),
        client_session_id: z.string().optional(),
        input_device_label: z.string().optional(),
        language: z.string().optional(),
      })
      .passthrough()
      .optional(),
    transcript_stage: z.enum(['live', 'final']).optional(),
    supersedes_segment_ids: z.array(z.string()).max(1000).optional(),
    supersede_stage: z.string().optional(),
    source_model_id: z.string().optional(),
    revision_only: LooseBooleanArg.optional(),
  }),
  result: () => z.object({
    group_id: z.string(),
    assistant: Json,
    session_id: z.string(),
    segment: Json.optional(),
    segment_path: z.string().optional(),
    document: Json.optional(),
    document_updated: z.boolean(),
    /** Whether this append also requested the idle review (recording stop / enough new input). */
    idle_review_requested: z.boolean().optional(),
    ...DeliveryFields,
  }),
});

/** assistant_voice_input_append: a general Ask or a composer refinement request, persisted before one targeted notify. */
export const assistant_voice_input_append = defineOp({
  summary: 'Append a Voice Secretary Ask or composer refinement request to its input stream.',
  args: () => z.object({
    group_id: GroupIdArg,
    by: ByArg,
    kind: z.enum(['voice_instruction', 'prompt_refine']),
    request_id: z.string().optional(),
    input_append_id: z.string().optional(),
    instruction: z.string().optional(),
    text: z.string().optional(),
    source_text: z.string().optional(),
    voice_transcript: z.string().optional(),
    composer_text: z.string().optional(),
    operation: z.string().optional(),
    composer_context: Json.optional(),
    composer_snapshot_hash: z.string().optional(),
  }),
  result: () => z.object({
    group_id: z.string(),
    assistant: Json.optional(),
    request_id: z.string(),
    input_append_id: z.string().optional(),
    prompt_request: Json.optional(),
    ask_request: Json.optional(),
    event: CCCSEventV1.optional(),
    ...DeliveryFields,
  }),
});

const PromptDraftResult = z.object({ group_id: z.string(), assistant: Json, prompt_draft: Json, event: CCCSEventV1 });

/** assistant_voice_prompt_draft_submit: the secretary's draft for a refinement request (voice-secretary only). */
export const assistant_voice_prompt_draft_submit = defineOp({
  summary: 'Submit the Voice Secretary prompt draft for a refinement request (voice-secretary only).',
  args: () => z.object({
    group_id: GroupIdArg,
    by: ByArg,
    request_id: z.string().min(1),
    draft_text: z.string().optional(),
    no_op: LooseBooleanArg.optional(),
    summary: z.string().optional(),
    operation: z.string().optional(),
    composer_snapshot_hash: z.string().optional(),
  }),
  result: () => PromptDraftResult,
});

/** assistant_voice_prompt_draft_ack: applied / dismissed / stale; the draft leaves the active projection. */
export const assistant_voice_prompt_draft_ack = defineOp({
  summary: 'Acknowledge a Voice Secretary prompt draft (applied, dismissed or stale).',
  args: () => z.object({ group_id: GroupIdArg, by: ByArg, request_id: z.string().min(1), status: z.enum(['applied', 'dismissed', 'stale']) }),
  result: () => PromptDraftResult,
});

export const VoiceModelStatus = z.enum(['not_installed', 'downloading', 'ready', 'failed', 'unknown']);

/**
 * assistant_voice_model_install: download a daemon-managed ASR model of the manifest (built-in
 * default + CCCC_HOME/config/voice-models.json) into staging, verify every artifact's size and
 * sha256, and only then switch it in. Errors: voice_model_not_found, voice_model_manifest_invalid,
 * voice_model_install_busy, voice_model_download_failed, voice_model_size_mismatch,
 * voice_model_hash_mismatch, voice_model_replace_failed.
 */
export const assistant_voice_model_install = defineOp({
  summary: 'Download, verify and switch in a local Voice Secretary ASR model.',
  args: () => z.object({ group_id: GroupIdArg, by: ByArg, model_id: z.string().min(1) }),
  result: () => z.object({
    group_id: z.string(),
    assistant: Json,
    model: z.looseObject({
        model_id: z.string(),
        status: VoiceModelStatus,
        install_dir: z.string().optional(),
        installed_at: z.string().optional(),
        updated_at: z.string().optional(),
        error: Json.optional(),
        update_available: z.boolean().optional(),
        installed_manifest_sha256: z.string().optional(),
      }),
  }),
});
