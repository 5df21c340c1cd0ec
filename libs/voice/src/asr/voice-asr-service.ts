import type { VoiceConfig } from '../assistant/assistant-record.js';
import { voiceError, VoiceErrorCodes } from '../errors.js';
import { loadVoiceModelManifest } from '../models/manifest.js';
import { voiceModelRecord, type VoiceModelRecord } from '../models/model-status.js';
import { LocalAsrEngine, type AsrStream, type LocalAsrEngineOptions } from './local-asr-engine.js';
import type { Waveform } from './pcm.js';
import { serviceHealth, type ServiceHealth } from './service-health.js';

type AsrConfig = Pick<VoiceConfig, 'recognition_backend' | 'service_model_id'>;

/**
 * Service-local ASR for one CCCC_HOME: reads the manifest and the on-disk model records, builds
 * the recognizer only when the group selects `assistant_service_local_asr` and its model is
 * installed, and rebuilds it when the installed copy changes. Every answer is derived from what
 * is on disk and what the engine reported, never from what was configured alone.
 */
export class VoiceAsrService {
  readonly engine: LocalAsrEngine;
  /** model_id + installed manifest hash the engine was built from. */
  private loadedKey: string | undefined;
  /** The install that failed to load: not retried (no host crash per health read) until it changes. */
  private failedKey: string | undefined;
  private probed = false;

  constructor(
    private readonly home: string,
    options: LocalAsrEngineOptions = {},
  ) {
    this.engine = new LocalAsrEngine(options);
  }

  async models(): Promise<VoiceModelRecord[]> {
    const manifest = await loadVoiceModelManifest(this.home);
    return Promise.all(manifest.map((m) => voiceModelRecord(this.home, m)));
  }

  /** Health after making the engine match the installed model (when service ASR is selected). */
  async health(config: AsrConfig): Promise<ServiceHealth & { models: VoiceModelRecord[] }> {
    const manifest = await loadVoiceModelManifest(this.home);
    const models = await Promise.all(manifest.map((m) => voiceModelRecord(this.home, m)));
    // The runtime's own readiness and version, probed once (a host process starts only for groups that chose service ASR).
    if (config.recognition_backend === 'assistant_service_local_asr' && !this.probed) {
      this.probed = true;
      await this.engine.probe();
    }
    const first = serviceHealth({ config, manifest, models, engine: this.engine.current });
    if (config.recognition_backend === 'assistant_service_local_asr' && first.selected) {
      const { entry, record } = first.selected;
      const key = `${entry.model_id}@${record.installed_manifest_sha256}`;
      if (this.failedKey !== key && (this.loadedKey !== key || this.engine.current.loaded_model_id !== entry.model_id)) {
        try {
          await this.engine.load({ model_id: entry.model_id, dir: record.install_dir!, recognizer: entry.recognizer, sample_rate: entry.sample_rate });
          this.loadedKey = key;
          this.failedKey = undefined;
        } catch {
          this.loadedKey = undefined; // the engine's last_error says why
          this.failedKey = key;
        }
      }
    }
    return { ...serviceHealth({ config, manifest, models, engine: this.engine.current }), models };
  }

  /** The spec's preconditions for service transcription; throws the matching error otherwise. */
  async ready(config: AsrConfig): Promise<ServiceHealth> {
    if (config.recognition_backend !== 'assistant_service_local_asr') {
      throw voiceError(VoiceErrorCodes.asrRuntimeNotReady, `recognition_backend is ${config.recognition_backend}, not assistant_service_local_asr`, {
        recognition_backend: config.recognition_backend,
      });
    }
    const h = await this.health(config);
    if (!h.service.ready) {
      const missing = h.service.missing as Array<{ code: string; message: string }>;
      const notInstalled = missing.find((m) => m.code === 'voice_model_not_installed' || m.code === 'voice_model_not_found');
      throw voiceError(notInstalled ? VoiceErrorCodes.modelNotInstalled : VoiceErrorCodes.asrRuntimeNotReady, (notInstalled ?? missing[0])?.message ?? 'service ASR is not ready', { service: h.service });
    }
    return h;
  }

  async transcribe(config: AsrConfig, wave: Waveform): Promise<{ text: string; health: ServiceHealth }> {
    const health = await this.ready(config);
    return { text: await this.engine.transcribe(wave), health };
  }

  async openStream(config: AsrConfig): Promise<AsrStream> {
    await this.ready(config);
    return this.engine.openStream();
  }

  close(): void {
    this.engine.close();
  }
}
