import { describe, expect, it } from 'vitest';
import type { VoiceModelEntry } from '../models/manifest.js';
import type { VoiceModelRecord } from '../models/model-status.js';
import { serviceHealth } from './service-health.js';

const entry = { model_id: 'm1', recognizer: { type: 'zipformer2_ctc', model: 'a.onnx', tokens: 't.txt' } } as unknown as VoiceModelEntry;
const ready: VoiceModelRecord = { model_id: 'm1', status: 'ready', install_dir: '/x' };
const local = { recognition_backend: 'assistant_service_local_asr', service_model_id: '' };

describe('serviceHealth', () => {
  it('says exactly that no model is installed', () => {
    const h = serviceHealth({ config: local, manifest: [entry], models: [{ model_id: 'm1', status: 'not_installed' }] });
    expect(h.service).toMatchObject({ status: 'unavailable', ready: false, missing: [{ code: 'voice_model_not_installed' }] });
    expect(h.service_runtime).toMatchObject({ runtime_id: 'sherpa_onnx_streaming', ready: false, engine_loaded: false });
    expect(h.selected).toBeUndefined();
  });

  it('names a selected model that the manifest does not have, and a failed install with its code', () => {
    expect(serviceHealth({ config: { ...local, service_model_id: 'zz' }, manifest: [entry], models: [] }).service.missing).toEqual([
      { code: 'voice_model_not_found', message: 'voice model zz is not in the manifest' },
    ]);
    const failed = serviceHealth({ config: { ...local, service_model_id: 'm1' }, manifest: [entry], models: [{ model_id: 'm1', status: 'failed', error: { code: 'voice_model_hash_mismatch' } }] });
    expect(failed.service.missing).toEqual([{ code: 'voice_model_not_installed', message: 'voice model m1 is failed: voice_model_hash_mismatch' }]);
  });

  it('is ready with the single installed model; engine facts come from the engine', () => {
    const h = serviceHealth({ config: local, manifest: [entry], models: [ready], engine: { binding_loaded: true, version: '1.13.8', loaded_model_id: 'm1' } });
    expect(h.service).toMatchObject({ status: 'ready', ready: true, alive: true, selected_model_id: 'm1', missing: [] });
    expect(h.service_runtime).toMatchObject({ ready: true, version: '1.13.8', engine_loaded: true });
    expect(h.selected?.entry.model_id).toBe('m1');
  });

  it('an engine error is reported and makes the service not ready', () => {
    const h = serviceHealth({ config: local, manifest: [entry], models: [ready], engine: { binding_loaded: true, last_error: { code: 'asr_backend_closed', message: 'ASR host exited (SIGABRT)' } } });
    expect(h.service).toMatchObject({ ready: false, missing: [{ code: 'asr_backend_closed' }] });
  });

  it('browser_asr: the service is not selected, the client transcribes', () => {
    const h = serviceHealth({ config: { recognition_backend: 'browser_asr', service_model_id: '' }, manifest: [], models: [] });
    expect(h.service).toMatchObject({ status: 'not_selected', streaming_backend: 'browser', ready: false });
  });
});
