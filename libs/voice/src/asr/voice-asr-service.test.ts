import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { installVoiceModel } from '../models/install.js';
import { ensureDist } from '../test-support/dist.js';
import { VoiceAsrService } from './voice-asr-service.js';

const dirs: string[] = [];
const services: VoiceAsrService[] = [];
afterEach(() => {
  for (const s of services.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const local = { recognition_backend: 'assistant_service_local_asr', service_model_id: '' };

describe('VoiceAsrService', () => {
  beforeAll(() => {
    ensureDist();
  }, 120_000);

  it('without a model: not ready, nothing loaded, transcription refused with voice_model_not_installed', async () => {
    const home = mkdtempSync(join(tmpdir(), 'asr-svc-'));
    dirs.push(home);
    const svc = new VoiceAsrService(home);
    services.push(svc);
    const h = await svc.health(local);
    expect(h.service).toMatchObject({ ready: false, missing: [{ code: 'voice_model_not_installed' }] });
    expect(h.service_runtime).toMatchObject({ runtime_id: 'sherpa_onnx_streaming', binding_loaded: true, version: '1.13.8', engine_loaded: false });
    await expect(svc.transcribe(local, { samples: new Float32Array(16), sampleRate: 16000 })).rejects.toMatchObject({ code: 'voice_model_not_installed' });
    await expect(svc.transcribe({ ...local, recognition_backend: 'browser_asr' }, { samples: new Float32Array(16), sampleRate: 16000 })).rejects.toMatchObject({ code: 'asr_runtime_not_ready' });
  });

  it('an installed model the engine cannot load is tried once, reported, and not retried on every health read', async () => {
    const home = mkdtempSync(join(tmpdir(), 'asr-svc-'));
    dirs.push(home);
    const src = join(home, 'src');
    mkdirSync(src);
    const arts = ['m.onnx', 't.txt'].map((name) => {
      writeFileSync(join(src, name), name);
      return { path: name, url: pathToFileURL(join(src, name)).href, sha256: createHash('sha256').update(name).digest('hex'), size: name.length };
    });
    mkdirSync(join(home, 'config'));
    writeFileSync(join(home, 'config', 'voice-models.json'), JSON.stringify({ models: [{ model_id: 'x', recognizer: { type: 'zipformer2_ctc', model: 'm.onnx', tokens: 't.txt' }, artifacts: arts }] }));
    await installVoiceModel(home, 'x');
    const svc = new VoiceAsrService(home);
    services.push(svc);
    const first = await svc.health(local);
    expect(first.service).toMatchObject({ ready: false, selected_model_id: 'x', missing: [{ code: 'asr_backend_closed' }] });
    const error = svc.engine.current.last_error;
    const again = await svc.health(local);
    expect(again.service.ready).toBe(false);
    expect(svc.engine.current.last_error).toBe(error); // the same observation: no second host was started
  }, 60_000);
});
