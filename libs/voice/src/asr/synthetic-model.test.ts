import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installVoiceModel } from '../models/install.js';
import { ensureDist } from '../test-support/dist.js';
import { makeSyntheticAsrModel, SYNTHETIC_ASR_MODEL_TITLE, toneBursts } from '../test-support/synthetic-asr-model.js';
import { decodeAudio, encodeWav, pcm16ToFloat } from './pcm.js';
import { VoiceAsrService } from './voice-asr-service.js';

// The real sherpa-onnx recognizer, in the real host process, running a model installed through
// the real manifest + file:// install path. The model is SYNTHETIC: an energy detector in the
// T-one CTC layout (libs/voice/test-fixtures/make_synthetic_asr_model.py), not speech
// recognition. Each tone burst decodes to the token "x"; that is all it can ever say.

let home: string;
let svc: VoiceAsrService;
const config = { recognition_backend: 'assistant_service_local_asr', service_model_id: 'synthetic-energy-detector' } as const;

beforeAll(async () => {
  ensureDist(); // the host script is built into dist/asr-host.js
  home = mkdtempSync(join(tmpdir(), 'voice-synth-'));
  const entry = makeSyntheticAsrModel(join(home, 'model-src'));
  mkdirSync(join(home, 'config'));
  writeFileSync(join(home, 'config', 'voice-models.json'), JSON.stringify({ models: [entry] }));
  const record = await installVoiceModel(home, 'synthetic-energy-detector');
  expect(record).toMatchObject({ status: 'ready' });
  svc = new VoiceAsrService(home, { requestTimeoutMs: 30_000 });
}, 120_000);
afterAll(() => {
  svc?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('service ASR with the synthetic energy-detector model', () => {
  it('health is ready and names the model honestly', async () => {
    const h = await svc.health(config);
    expect(h.service).toMatchObject({ ready: true, selected_model_id: 'synthetic-energy-detector' });
    expect(h.models[0]).toMatchObject({ model_id: 'synthetic-energy-detector', status: 'ready' });
    expect(JSON.stringify(h)).toContain(SYNTHETIC_ASR_MODEL_TITLE);
  }, 60_000);

  it('whole-utterance transcription: silence → "", two bursts → "xx", three → "xxx"', async () => {
    const wav = (pcm: Int16Array) => decodeAudio(encodeWav(pcm, 16000), 'audio/wav');
    expect((await svc.transcribe(config, wav(new Int16Array(16000 * 2)))).text).toBe('');
    expect((await svc.transcribe(config, wav(toneBursts(2, { gap: 0.6 })))).text).toBe('xx');
    expect((await svc.transcribe(config, wav(toneBursts(3, { gap: 0.6 })))).text).toBe('xxx');
  }, 60_000);

  it('streaming: each burst followed by 3 s of silence ends at an endpoint with text "x"', async () => {
    const stream = await svc.openStream(config);
    const pcm = toneBursts(2);
    const step = 3200; // 200 ms frames, as a browser would send them
    const events: Array<{ text: string; endpoint: boolean }> = [];
    for (let i = 0; i < pcm.length; i += step) {
      const chunk = Buffer.from(pcm.slice(i, i + step).buffer);
      const r = await stream.feed({ samples: pcm16ToFloat(chunk), sampleRate: 16000 });
      if (r.endpoint || r.text) events.push(r);
    }
    const finals = events.filter((e) => e.endpoint).map((e) => e.text);
    expect(finals).toEqual(['x', 'x']);
    expect(events.some((e) => !e.endpoint && e.text === 'x')).toBe(true); // a partial before the endpoint
    expect(await stream.finish()).toBe('');
  }, 60_000);
});
