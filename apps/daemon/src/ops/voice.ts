import { effectiveRole, principalOf, type GroupDoc } from '@cccc/groups';
import type { OpRouter } from '@cccc/ipc-protocol';
import {
  assertVoiceWriter,
  assistantRecord,
  durableHealth,
  InputLog,
  updateAssistantsFile,
  withVoiceStatus,
  readAssistantsFile,
  VOICE_ACTOR_ID,
  VOICE_ASSISTANT_ID,
  voiceError,
  VoiceErrorCodes,
  voiceSessionView,
  voiceSettingsOf,
  voiceWorkflowOf,
  installVoiceModel,
  type RecordingLeaseStore,
  type VoiceAsrService,
} from '@cccc/voice';
import type { StoreDeps } from '../kernel/store-deps.js';
import type { RuntimeRegistry } from '../runtime/runtime-registry.js';
import { writeGroup } from './group-write.js';
import { updateVoiceSettings, type VoiceSettingsDeps } from '../voice/voice-settings.js';
import type { VoiceDocuments } from '../voice/voice-documents.js';
import { clearVoiceTranscript, updateVoiceSession } from '../voice/voice-sessions.js';
import type { VoiceInput } from '../voice/voice-input.js';
import { appendVoiceTranscript } from '../voice/voice-transcript.js';
import { ackPromptDraft, appendVoiceInput, submitPromptDraft } from '../voice/voice-prompts.js';

export type VoiceOpsDeps = Pick<StoreDeps, 'layout' | 'groups' | 'ledgers' | 'groupLocks'> &
  VoiceSettingsDeps & {
  readonly voiceLease: RecordingLeaseStore;
  readonly voiceDocuments: VoiceDocuments;
  readonly voiceInput: VoiceInput;
  readonly runtimes: Pick<RuntimeRegistry, 'get'>;
  readonly voiceAsr: Pick<VoiceAsrService, 'health'>;
};

/** §8.3 Voice Secretary (issue 26): thin handlers over @cccc/voice. */
export function registerVoiceOps(router: OpRouter, deps: VoiceOpsDeps): void {
  router.register('assistant_state', async (args) => {
    const group = deps.groups.get(args.group_id);
    if (args.assistant_id !== undefined && args.assistant_id !== VOICE_ASSISTANT_ID) {
      throw voiceError(VoiceErrorCodes.assistantNotFound, `no built-in assistant ${args.assistant_id}`, { assistant_id: args.assistant_id });
    }
    const stateDoc = await readAssistantsFile(deps.layout.groupDir(args.group_id));
    if (args.view === 'voice_session') {
      const sessions = Array.isArray(stateDoc.sessions) ? stateDoc.sessions : [];
      return { group_id: args.group_id, session: voiceSessionView(sessions, { session_id: args.session_id, document_path: args.document_path }) };
    }
    const asr = await deps.voiceAsr.health(voiceSettingsOf(group).config);
    const record = withServiceHealth(recordOf(deps, group, stateDoc), asr.service);
    // Documents as assistant_voice_document_list answers them (reconciled), and whether unread input waits.
    const { group_id: _g, ...documents } = await deps.voiceDocuments.list(args.group_id, false);
    return {
      group_id: args.group_id,
      assistants: [record],
      assistants_by_id: { [VOICE_ASSISTANT_ID]: record },
      ...(args.assistant_id ? { assistant: record } : {}),
      ...documents,
      new_input_available: await new InputLog(deps.layout.home, args.group_id).hasUnread(),
      service_runtime: asr.service_runtime,
      service_models: asr.models,
      service_models_by_id: Object.fromEntries(asr.models.map((m) => [m.model_id, m])),
    };
  });

  router.register('assistant_voice_model_install', async (args) => {
    const group = deps.groups.get(args.group_id);
    assertVoiceWriter(args.by, (id) => effectiveRole(group.actors, id), hasVoiceActor(group));
    // Failures throw their voice_model_* code; the previous active model stays as it was.
    const model = await installVoiceModel(deps.layout.home, args.model_id);
    const asr = await deps.voiceAsr.health(voiceSettingsOf(group).config);
    const stateDoc = await readAssistantsFile(deps.layout.groupDir(args.group_id));
    return { group_id: args.group_id, assistant: withServiceHealth(recordOf(deps, group, stateDoc), asr.service), model };
  });

  router.register('assistant_voice_recording_lease', async (args) => {
    const group = deps.groups.get(args.group_id);
    assertVoiceWriter(args.by, (id) => effectiveRole(group.actors, id), hasVoiceActor(group));
    return deps.voiceLease.update({
      ...args,
      group_title: group.title,
      voice_enabled: voiceSettingsOf(group).enabled,
    });
  });

  router.register('assistant_settings_update', async (args) => {
    deps.groups.get(args.group_id);
    if (args.assistant_id !== VOICE_ASSISTANT_ID) {
      throw voiceError(VoiceErrorCodes.assistantNotFound, `no built-in assistant ${args.assistant_id}`, { assistant_id: args.assistant_id });
    }
    return { group_id: args.group_id, ...(await updateVoiceSettings(deps, args)) };
  });

  router.register('assistant_voice_document_list', (args) => deps.voiceDocuments.list(args.group_id, args.include_archived === true));
  router.register('assistant_voice_document_save', (args) => deps.voiceDocuments.save(args));
  router.register('assistant_voice_document_archive', (args) => deps.voiceDocuments.archive(args));
  router.register('assistant_voice_document_delete', (args) => deps.voiceDocuments.delete(args));
  router.register('assistant_voice_document_library', (args) => deps.voiceDocuments.library(args.group_id));
  router.register('assistant_voice_document_library_update', (args) => deps.voiceDocuments.libraryUpdate(args));

  router.register('assistant_voice_session_update', (args) => updateVoiceSession(deps, args));
  router.register('assistant_voice_session_transcript_clear', (args) => clearVoiceTranscript(deps, args));

  router.register('assistant_voice_document_instruction', (args) => deps.voiceInput.documentInstruction(args));
  router.register('assistant_voice_document_input_read', (args) => deps.voiceInput.inputRead(args));
  router.register('assistant_voice_instruction_feedback', (args) => deps.voiceInput.feedback(args));
  router.register('assistant_voice_ask_requests_clear', (args) => deps.voiceInput.clearAsks(args));
  router.register('assistant_voice_request', (args) => deps.voiceInput.actionRequest(args));
  router.register('assistant_voice_transcript_append', (args) => appendVoiceTranscript(deps, args));
  router.register('assistant_voice_input_append', (args) => appendVoiceInput(deps, args));
  router.register('assistant_voice_prompt_draft_submit', (args) => submitPromptDraft(deps, args));
  router.register('assistant_voice_prompt_draft_ack', (args) => ackPromptDraft(deps, args));

  router.register('assistant_status_update', async (args) => {
    const group = deps.groups.get(args.group_id);
    if (args.assistant_id !== VOICE_ASSISTANT_ID) {
      throw voiceError(VoiceErrorCodes.assistantNotFound, `no built-in assistant ${args.assistant_id}`, { assistant_id: args.assistant_id });
    }
    assertVoiceWriter(args.by, (id) => effectiveRole(group.actors, id), hasVoiceActor(group));
    const health = durableHealth(args.health);
    const { outcome, event } = await writeGroup(
      deps,
      args.group_id,
      () => updateAssistantsFile(deps.layout.groupDir(args.group_id), (doc) => withVoiceStatus(doc, args.lifecycle, health, new Date().toISOString())),
      () => ({ kind: 'assistant.status.update', by: principalOf(args.by), data: { assistant_id: VOICE_ASSISTANT_ID, lifecycle: args.lifecycle, health } }),
    );
    return { group_id: args.group_id, assistant: recordOf(deps, deps.groups.get(args.group_id), outcome), event };
  });
}

/** health.service beside the durable health and the actor observation (spec §8.3 assistant_settings_update). */
function withServiceHealth(record: Record<string, unknown>, service: Record<string, unknown>): Record<string, unknown> {
  return { ...record, health: { ...(record.health as Record<string, unknown>), service } };
}

function hasVoiceActor(group: GroupDoc): boolean {
  return group.actors.some((a) => a.id === VOICE_ACTOR_ID && a.internal_kind === VOICE_ASSISTANT_ID);
}

/** The assistant record: settings from group.yaml, durable workflow, and the live actor observation. */
function recordOf(deps: Pick<VoiceOpsDeps, 'runtimes'>, group: GroupDoc, stateDoc: Record<string, unknown>): Record<string, unknown> {
  return assistantRecord(voiceSettingsOf(group), voiceWorkflowOf(stateDoc), {
    configured: group.actors.some((a) => a.id === VOICE_ACTOR_ID),
    running: deps.runtimes.get(group.group_id, VOICE_ACTOR_ID) !== undefined,
  });
}
