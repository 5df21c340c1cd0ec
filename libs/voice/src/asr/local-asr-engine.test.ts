import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureDist } from '../test-support/dist.js';
import { LocalAsrEngine } from './local-asr-engine.js';

const engines: LocalAsrEngine[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function engine(): LocalAsrEngine {
  const e = new LocalAsrEngine({ requestTimeoutMs: 30_000 });
  engines.push(e);
  return e;
}
const recognizer = { type: 'transducer', encoder: 'e.onnx', decoder: 'd.onnx', joiner: 'j.onnx', tokens: 't.txt' } as const;

// The real sherpa-onnx-node binding in a real host process. No real model is reachable from this
// machine (see the voice notes), so these tests cover loading, refusal and crash isolation only.
describe('LocalAsrEngine (sherpa-onnx host process)', () => {
  beforeAll(() => {
    ensureDist(); // the host script is built into dist/asr-host.js
  }, 120_000);

  it('loads the native binding in the host and reports its version', async () => {
    const state = await engine().probe();
    expect(state).toMatchObject({ binding_loaded: true, version: '1.13.8' });
  });

  it('without a model, transcription is asr_runtime_not_ready', async () => {
    const e = engine();
    await expect(e.transcribe({ samples: new Float32Array(1600), sampleRate: 16000 })).rejects.toMatchObject({ code: 'asr_runtime_not_ready' });
  });

  it('a model whose files are missing is refused; no model counts as loaded', async () => {
    const e = engine();
    const dir = mkdtempSync(join(tmpdir(), 'asr-missing-'));
    dirs.push(dir);
    await expect(e.load({ model_id: 'm', dir, recognizer, sample_rate: 16000 })).rejects.toBeTruthy();
    expect(e.current.loaded_model_id).toBeUndefined();
    expect(e.current.last_error).toBeDefined();
  });

  it('a corrupt model aborts only the host: the engine reports the crash and recovers on next use', async () => {
    const e = engine();
    const dir = mkdtempSync(join(tmpdir(), 'asr-corrupt-'));
    dirs.push(dir);
    for (const f of ['e.onnx', 'd.onnx', 'j.onnx', 't.txt']) writeFileSync(join(dir, f), 'not a model');
    await expect(e.load({ model_id: 'm', dir, recognizer, sample_rate: 16000 })).rejects.toMatchObject({ code: 'asr_backend_closed' });
    expect(e.current.last_error).toMatchObject({ code: 'asr_backend_closed' });
    expect(e.current.last_error!.message).toMatch(/SIGABRT|code/);
    expect((await e.probe()).binding_loaded).toBe(true);
  });
});
