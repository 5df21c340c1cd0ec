import type { VoiceAsrService } from '@cccc/voice';
import { registerTranscriptionRoute, type TranscriptionRouteOptions } from '../voice/transcription-route.js';
import type { ApiRoutes } from './api-routes.js';

/** A query value as given, or nothing (the op's schema checks it). */
const param = (url: URL, key: string) => url.searchParams.get(key) ?? undefined;
const optional = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as { [P in K]: V }));

/** §8.3 Voice Secretary routes (issue 26): thin mappings onto the assistant_* ops (the daemon owns the rules). */
export function registerVoiceRoutes(api: ApiRoutes, asr: VoiceAsrService, options: TranscriptionRouteOptions = {}): void {
  api.op('assistant_state', {
    query: (url) => ({
      ...optional('assistant_id', param(url, 'assistant_id')),
      ...optional('view', param(url, 'view')),
      ...optional('session_id', param(url, 'session_id')),
      ...optional('document_path', param(url, 'document_path')),
    }),
  });
  api.op('assistant_settings_update');
  api.op('assistant_voice_document_list', { query: (url) => optional('include_archived', param(url, 'include_archived') as unknown as boolean | undefined) });
  api.op('assistant_voice_document_save');
  api.op('assistant_voice_transcript_append');
  api.op('assistant_voice_input_append');
  api.op('assistant_voice_recording_lease');
  api.op('assistant_voice_document_archive');
  api.op('assistant_voice_model_install');
  registerTranscriptionRoute(api, asr, options);
}
