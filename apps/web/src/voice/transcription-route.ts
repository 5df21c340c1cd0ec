import { decodeAudio, type VoiceAsrService } from '@cccc/voice';
import type { ApiRoutes } from '../routes/api-routes.js';
import type { VoiceTranscriptionResult } from '../routes/route-map.js';
import { MAX_AUDIO_BYTES, refuseDeclaredOversize, withBodyInTempFile } from './body-to-temp.js';
import { asHttpError, checkUploadLease, requireEnabled, voiceGroupState } from './voice-gate.js';

export interface TranscriptionRouteOptions {
  readonly maxAudioBytes?: number;
}

/**
 * POST /groups/{gid}/assistants/voice_secretary/transcriptions: push-to-talk audio (mono PCM16 or
 * WAV) transcribed by service-local ASR. It only answers text and service health; the caller
 * appends it with assistant_voice_transcript_append (spec §8.3). Order of refusals: group access
 * (route), an announced oversize body, enabled, lease, model/engine readiness, then the body is
 * streamed (bounded) to a temp file.
 */
export function registerTranscriptionRoute(api: ApiRoutes, asr: VoiceAsrService, options: TranscriptionRouteOptions = {}): void {
  api.route('voice_transcriptions', async (ctx, { group_id }): Promise<VoiceTranscriptionResult> => {
    try {
      refuseDeclaredOversize(ctx.req, options.maxAudioBytes ?? MAX_AUDIO_BYTES);
      const state = await voiceGroupState(api.client, group_id);
      requireEnabled(state);
      await checkUploadLease(api.client, group_id, { owner_id: ctx.url.searchParams.get('owner_id'), lease_id: ctx.url.searchParams.get('lease_id') });
      await asr.ready(state.config);
      const mime_type = String(ctx.req.headers['content-type'] ?? 'application/octet-stream').split(';')[0]!.trim();
      const language = ctx.url.searchParams.get('language') ?? undefined;
      return await withBodyInTempFile(ctx.req, options.maxAudioBytes ?? MAX_AUDIO_BYTES, async (bytes) => {
        const wave = decodeAudio(bytes, mime_type);
        const started = Date.now();
        const { text, health } = await asr.transcribe(state.config, wave);
        return {
          group_id,
          assistant: state.assistant,
          transcript: text,
          mime_type,
          ...(language ? { language } : {}),
          bytes: bytes.length,
          backend: 'assistant_service_local_asr',
          service: health.service,
          asr: { model_id: health.service.selected_model_id, sample_rate: wave.sampleRate, duration_ms: Math.round((wave.samples.length / wave.sampleRate) * 1000), elapsed_ms: Date.now() - started },
        };
      });
    } catch (err) {
      throw asHttpError(err);
    }
  });
}
