import type { VoiceConfig } from '../assistant/assistant-record.js';
import type { VoiceModelEntry } from '../models/manifest.js';
import type { VoiceModelRecord } from '../models/model-status.js';
import { SHERPA_RUNTIME_ID } from './asr-backends.js';
import type { EngineState } from './local-asr-engine.js';

/** What keeps service-local ASR from working, each a stable code plus a sentence. */
export interface Missing {
  readonly code: string;
  readonly message: string;
}

export interface ServiceHealthInput {
  readonly config: Pick<VoiceConfig, 'recognition_backend' | 'service_model_id'>;
  readonly manifest: readonly VoiceModelEntry[];
  readonly models: readonly VoiceModelRecord[];
  /** The engine as last observed (undefined: not probed in this process). */
  readonly engine?: EngineState;
}

export interface ServiceHealth {
  readonly service_runtime: Record<string, unknown>;
  readonly service: Record<string, unknown>;
  /** The manifest entry of the selected model when it is installed (what an engine loads). */
  readonly selected?: { entry: VoiceModelEntry; record: VoiceModelRecord };
}

/**
 * The selected model: `service_model_id` when set, else the only installed model (so a single
 * install is usable without another settings change). Several installed and none chosen is
 * reported as missing a choice, not resolved by guessing.
 */
function selectModel(input: ServiceHealthInput): { id?: string; missing?: Missing } {
  const chosen = input.config.service_model_id;
  if (chosen) return { id: chosen };
  const ready = input.models.filter((m) => m.status === 'ready');
  if (ready.length === 1) return { id: ready[0]!.model_id };
  if (ready.length === 0) return { missing: { code: 'voice_model_not_installed', message: 'no voice model is installed (assistant_voice_model_install)' } };
  return { missing: { code: 'service_model_id_required', message: 'several voice models are installed; set service_model_id' } };
}

/**
 * service_runtime and health.service, from facts only: the configured backend, the manifest and
 * on-disk model records, and the engine's own observation. `missing` lists exactly what stands
 * between the group and working service-local ASR.
 */
export function serviceHealth(input: ServiceHealthInput): ServiceHealth {
  const backend = input.config.recognition_backend;
  const engine = input.engine;
  const missing: Missing[] = [];
  const { id, missing: noChoice } = selectModel(input);
  if (noChoice) missing.push(noChoice);
  const record = id ? input.models.find((m) => m.model_id === id) : undefined;
  const entry = id ? input.manifest.find((m) => m.model_id === id) : undefined;
  if (id && !entry) missing.push({ code: 'voice_model_not_found', message: `voice model ${id} is not in the manifest` });
  else if (record && record.status !== 'ready') {
    const why = record.status === 'failed' && record.error ? `: ${String(record.error.code)}` : '';
    missing.push({ code: 'voice_model_not_installed', message: `voice model ${id} is ${record.status}${why}` });
  }
  if (engine?.last_error) missing.push({ code: engine.last_error.code, message: engine.last_error.message });
  const modelReady = record?.status === 'ready';
  const engineLoaded = engine?.loaded_model_id !== undefined && engine.loaded_model_id === id;
  const ready = backend === 'assistant_service_local_asr' && modelReady && !engine?.last_error;
  const service_runtime = {
    runtime_id: SHERPA_RUNTIME_ID,
    ready,
    binding_loaded: engine?.binding_loaded ?? false,
    ...(engine?.version ? { version: engine.version } : {}),
    engine_loaded: engineLoaded,
    ...(engine?.loaded_model_id ? { loaded_model_id: engine.loaded_model_id } : {}),
    ...(engine?.last_error ? { error: engine.last_error } : {}),
  };
  const service = {
    status: backend !== 'assistant_service_local_asr' ? 'not_selected' : ready ? 'ready' : 'unavailable',
    alive: engine?.binding_loaded ?? false,
    ready,
    recognition_backend: backend,
    streaming_backend: backend === 'browser_asr' ? 'browser' : SHERPA_RUNTIME_ID,
    ...(id ? { selected_model_id: id } : {}),
    ...(record ? { model: record } : {}),
    runtime: service_runtime,
    missing,
  };
  return { service_runtime, service, ...(entry && record && modelReady ? { selected: { entry, record } } : {}) };
}
