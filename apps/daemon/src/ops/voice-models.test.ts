import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupWithTeam, startDaemonFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';

// §8.3 assistant_voice_model_install and assistant_state's service fields (issue 27), through a
// real daemon socket. The artifacts are test bytes, not a model: install verifies bytes only; the
// engine then really tries to build a recognizer from them and the health reports that it cannot.

let fx: DaemonFixture;
let gid: string;
beforeAll(async () => {
  fx = await startDaemonFixture();
  gid = await groupWithTeam(fx, 'voice models');
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
function writeOverlay(mutate: (a: { path: string; url: string; sha256: string; size: number }[]) => void = () => undefined) {
  const src = join(fx.home, 'model-src');
  mkdirSync(src, { recursive: true });
  const arts = ['model.onnx', 'tokens.txt'].map((name, i) => {
    const data = Buffer.alloc(2048 + i, 7 + i);
    writeFileSync(join(src, name), data);
    return { path: name, url: pathToFileURL(join(src, name)).href, sha256: sha(data), size: data.length };
  });
  mutate(arts);
  mkdirSync(join(fx.home, 'config'), { recursive: true });
  writeFileSync(
    join(fx.home, 'config', 'voice-models.json'),
    JSON.stringify({ models: [{ model_id: 'tiny-test', title: 'test bytes', recognizer: { type: 'zipformer2_ctc', model: 'model.onnx', tokens: 'tokens.txt' }, artifacts: arts }] }),
  );
}

describe('voice models', () => {
  it('assistant_state lists the manifest models and service_runtime with nothing installed', async () => {
    writeOverlay();
    const r = await fx.call('assistant_state', { group_id: gid, assistant_id: 'voice_secretary' });
    expect(r.service_models).toEqual([expect.objectContaining({ model_id: 'tiny-test', status: 'not_installed' })]);
    expect(r.service_models_by_id).toHaveProperty('tiny-test');
    expect(r.service_runtime).toMatchObject({ runtime_id: 'sherpa_onnx_streaming', ready: false, engine_loaded: false });
    expect((r.assistant!.health as Record<string, unknown>).service).toMatchObject({ status: 'not_selected', recognition_backend: 'browser_asr' });
  });

  it('a wrong checksum is voice_model_hash_mismatch and installs nothing', async () => {
    writeOverlay((a) => (a[1]!.sha256 = '0'.repeat(64)));
    expect(await fx.codeOf('assistant_voice_model_install', { group_id: gid, model_id: 'tiny-test', by: 'user' })).toBe('voice_model_hash_mismatch');
    expect(existsSync(join(fx.home, 'cache', 'voice-models', 'tiny-test', 'active'))).toBe(false);
    const r = await fx.call('assistant_state', { group_id: gid });
    expect(r.service_models![0]).toMatchObject({ status: 'failed', error: { code: 'voice_model_hash_mismatch' } });
  });

  it('unknown model and peers are refused', async () => {
    expect(await fx.codeOf('assistant_voice_model_install', { group_id: gid, model_id: 'nope', by: 'user' })).toBe('voice_model_not_found');
    expect(await fx.codeOf('assistant_voice_model_install', { group_id: gid, model_id: 'tiny-test', by: 'p1' })).toBe('permission_denied');
  });

  it('installs into CCCC_HOME/cache/voice-models; with service ASR selected the health says the engine could not load these bytes', async () => {
    writeOverlay();
    const r = await fx.call('assistant_voice_model_install', { group_id: gid, model_id: 'tiny-test', by: 'user' });
    expect(r.model).toMatchObject({ model_id: 'tiny-test', status: 'ready', install_dir: join(fx.home, 'cache', 'voice-models', 'tiny-test', 'active') });
    await fx.call('assistant_settings_update', { group_id: gid, by: 'user', assistant_id: 'voice_secretary', patch: { config: { recognition_backend: 'assistant_service_local_asr' } } });
    const s = await fx.call('assistant_state', { group_id: gid, assistant_id: 'voice_secretary' });
    const service = (s.assistant!.health as Record<string, unknown>).service as Record<string, unknown>;
    expect(service).toMatchObject({ selected_model_id: 'tiny-test', ready: false, model: { status: 'ready' } });
    expect(service.missing).toEqual([expect.objectContaining({ code: 'asr_backend_closed' })]);
    expect(s.service_runtime).toMatchObject({ engine_loaded: false, error: { code: 'asr_backend_closed' } });
  }, 60_000);
});
