import { z } from 'zod';

// `assistant.*` (§8.3): the Voice Secretary's events. Loose objects: readers ignore fields they do
// not know, and the reference daemon writes more than these.

const AssistantId = z.string().min(1);

/** `assistant.status.update` (assistant_status_update): the durable lifecycle / health. */
export const AssistantStatusUpdateData = z.looseObject({
  assistant_id: AssistantId,
  lifecycle: z.string().min(1),
  health: z.record(z.string(), z.unknown()).optional(),
});
export type AssistantStatusUpdateData = z.infer<typeof AssistantStatusUpdateData>;

/** `assistant.settings.update` (assistant_settings_update): the patch applied, and whether the actor started. */
export const AssistantSettingsUpdateData = z.looseObject({
  assistant_id: AssistantId,
  patch: z.record(z.string(), z.unknown()),
  actor_started: z.boolean().optional(),
});
export type AssistantSettingsUpdateData = z.infer<typeof AssistantSettingsUpdateData>;

/**
 * `assistant.voice.document`: a working document saved / created / archived / deleted /
 * reconciled (then `documents`, the changed entries), or an input appended for it.
 */
export const AssistantVoiceDocumentData = z.looseObject({
  assistant_id: AssistantId,
  action: z.string().min(1),
  document_path: z.string().optional(),
  document_id: z.string().optional(),
  title: z.string().optional(),
  status: z.string().optional(),
  input_kind: z.string().optional(),
  input_preview: z.string().optional(),
  documents: z.array(z.record(z.string(), z.unknown())).optional(),
});
export type AssistantVoiceDocumentData = z.infer<typeof AssistantVoiceDocumentData>;

/** `assistant.voice.session` (assistant_voice_session_update): a session completion (diarization). */
export const AssistantVoiceSessionData = z.looseObject({
  assistant_id: AssistantId,
  session_id: z.string().min(1),
  event: z.string().optional(),
  status: z.string().optional(),
  diarization_ready: z.boolean().optional(),
  document_path: z.string().optional(),
});
export type AssistantVoiceSessionData = z.infer<typeof AssistantVoiceSessionData>;

/** `assistant.voice.request`: Ask feedback (`action: "feedback"`) or an action request handed to an actor (`"request"`). */
export const AssistantVoiceRequestData = z.looseObject({
  assistant_id: AssistantId,
  action: z.string().min(1),
  request_id: z.string().optional(),
  status: z.string().optional(),
  target: z.string().optional(),
  document_path: z.string().optional(),
});
export type AssistantVoiceRequestData = z.infer<typeof AssistantVoiceRequestData>;

/** `assistant.voice.prompt_draft`: a draft submitted (`submit` / `no_op`) or acknowledged (`ack`). */
export const AssistantVoicePromptDraftData = z.looseObject({
  assistant_id: AssistantId,
  request_id: z.string().min(1),
  action: z.string().min(1),
  status: z.string().min(1),
  draft_preview: z.string().optional(),
});
export type AssistantVoicePromptDraftData = z.infer<typeof AssistantVoicePromptDraftData>;
