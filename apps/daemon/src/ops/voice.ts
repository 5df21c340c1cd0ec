import { effectiveRole } from '@cccc/groups';
import type { OpRouter } from '@cccc/ipc-protocol';
import {
  assertVoiceWriter,
  assistantRecord,
  readAssistantsFile,
  VOICE_ACTOR_ID,
  VOICE_ASSISTANT_ID,
  voiceError,
  VoiceErrorCodes,
  voiceSessionView,
  voiceSettingsOf,
  voiceWorkflowOf,
  type RecordingLeaseStore,
} from '@cccc/voice';
import type { StoreDeps } from '../kernel/store-deps.js';
import type { RuntimeRegistry } from '../runtime/runtime-registry.js';

export type VoiceOpsDeps = Pick<StoreDeps, 'layout' | 'groups'> & {
  readonly voiceLease: RecordingLeaseStore;
  readonly runtimes: Pick<RuntimeRegistry, 'get'>;
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
    const record = assistantRecord(voiceSettingsOf(group), voiceWorkflowOf(stateDoc), {
      configured: group.actors.some((a) => a.id === VOICE_ACTOR_ID),
      running: deps.runtimes.get(args.group_id, VOICE_ACTOR_ID) !== undefined,
    });
    return {
      group_id: args.group_id,
      assistants: [record],
      assistants_by_id: { [VOICE_ASSISTANT_ID]: record },
      ...(args.assistant_id ? { assistant: record } : {}),
    };
  });

  router.register('assistant_voice_recording_lease', async (args) => {
    const group = deps.groups.get(args.group_id);
    assertVoiceWriter(args.by, (id) => effectiveRole(group.actors, id));
    return deps.voiceLease.update({
      ...args,
      group_title: group.title,
      voice_enabled: voiceSettingsOf(group).enabled,
    });
  });
}
