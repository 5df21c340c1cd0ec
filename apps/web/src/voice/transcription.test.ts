import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { encodeWav } from '@cccc/voice';
import { createAccessToken, revokeAccessToken } from '../auth/tokens.js';
import { startWebServer, type WebServer } from '../server.js';
import { startDaemonHome, type DaemonHome } from '../testing/harness.js';

// The Voice Secretary transcription endpoints (issue 27) through the real HTTP server and a real
// daemon. No real ASR model is reachable from this machine, so every request here ends in an
// honest refusal; which refusal, in which order, is what is checked. The success paths, with a
// synthetic energy-detector model (not speech recognition), are in transcription-asr.test.ts.

let daemon: DaemonHome;
let web: WebServer;
let gid: string;
let client: DaemonClient;
const base = () => `${web.url}/api/v1/groups/${gid}/assistants/voice_secretary`;

beforeAll(async () => {
  daemon = await startDaemonHome();
  web = await startWebServer({ home: daemon.home, port: 0 });
  client = new DaemonClient({ home: daemon.home });
  gid = (await client.call('group_create', { title: 'voice-asr' })).group_id;
  await client.call('actor_add', { group_id: gid, actor_id: 'lead', runtime: 'custom', command: ['true'] });
}, 180_000);
afterAll(async () => {
  await web?.close();
  await daemon?.stop();
}, 60_000);

const wav = encodeWav(new Int16Array(1600), 16000);
async function transcribe(query = '', body: Buffer = wav, headers: Record<string, string> = {}) {
  const res = await fetch(`${base()}/transcriptions${query}`, { method: 'POST', headers: { 'content-type': 'audio/wav', ...headers }, body });
  return { status: res.status, json: (await res.json()) as any };
}
async function settings(config: Record<string, unknown>, enabled?: boolean) {
  await client.call('assistant_settings_update', { group_id: gid, by: 'user', assistant_id: 'voice_secretary', patch: { ...(enabled === undefined ? {} : { enabled }), config } });
}
async function lease(body: Record<string, unknown>) {
  const res = await fetch(`${base()}/recording_lease`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.json()) as any;
}
function wsOpen(query: string): Promise<{ status?: number; body?: any; ws?: WebSocket }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${base().replace('http', 'ws')}/transcriptions/ws${query}`, { headers: { origin: web.url } });
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (d) => (text += String(d)));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    ws.on('open', () => resolve({ ws }));
  });
}

describe('POST …/voice_secretary/transcriptions', () => {
  it('refuses while Voice Secretary is disabled: 409 assistant_disabled', async () => {
    expect(await transcribe()).toMatchObject({ status: 409, json: { ok: false, error: { code: 'assistant_disabled' } } });
  });

  it('with browser_asr the service does not transcribe: asr_runtime_not_ready names the backend', async () => {
    await settings({ recognition_backend: 'browser_asr' }, true);
    const r = await transcribe();
    expect(r).toMatchObject({ status: 409, json: { error: { code: 'asr_runtime_not_ready', details: { recognition_backend: 'browser_asr' } } } });
  });

  it('with service ASR and no model: voice_model_not_installed, with health saying exactly that', async () => {
    await settings({ recognition_backend: 'assistant_service_local_asr' });
    const r = await transcribe();
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe('voice_model_not_installed');
    expect(r.json.error.details.service).toMatchObject({ ready: false, missing: [{ code: 'voice_model_not_installed' }] });
  });

  it('an installed model the engine cannot load is asr_runtime_not_ready with the engine error', async () => {
    const src = join(daemon.home, 'model-src');
    mkdirSync(src, { recursive: true });
    const arts = ['model.onnx', 'tokens.txt'].map((name) => {
      const data = Buffer.from(`not a real ${name}`);
      writeFileSync(join(src, name), data);
      return { path: name, url: pathToFileURL(join(src, name)).href, sha256: createHash('sha256').update(data).digest('hex'), size: data.length };
    });
    mkdirSync(join(daemon.home, 'config'), { recursive: true });
    writeFileSync(join(daemon.home, 'config', 'voice-models.json'), JSON.stringify({ models: [{ model_id: 'bytes', recognizer: { type: 'zipformer2_ctc', model: 'model.onnx', tokens: 'tokens.txt' }, artifacts: arts }] }));
    const installed = await fetch(`${base()}/models/install`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model_id: 'bytes' }) });
    expect(((await installed.json()) as any).result.model).toMatchObject({ status: 'ready' });
    const r = await transcribe();
    expect(r).toMatchObject({ status: 409, json: { error: { code: 'asr_runtime_not_ready' } } });
    expect(r.json.error.details.service.missing[0]).toMatchObject({ code: 'asr_backend_closed' });
  }, 60_000);

  it('refuses an announced body over 100 MiB with 413 audio_too_large before reading it', async () => {
    const r = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = request(`${base()}/transcriptions`, { method: 'POST', headers: { 'content-type': 'audio/pcm', 'content-length': String(100 * 1024 * 1024 + 1) } }, (res) => {
        let text = '';
        res.on('data', (d) => (text += String(d)));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(r).toMatchObject({ status: 413, body: { error: { code: 'audio_too_large' } } });
  });

  it('while another owner holds the lease: busy; its holder passes the lease check; a browser-capture lease is a mismatch', async () => {
    const a = await lease({ action: 'acquire', owner_id: 'tab-a', capture_mode: 'service', recognition_backend: 'assistant_service_local_asr' });
    expect(a.result.acquired).toBe(true);
    expect(await transcribe()).toMatchObject({ status: 409, json: { error: { code: 'assistant_voice_recording_busy' } } });
    expect(await transcribe(`?owner_id=tab-a&lease_id=vrl_wrong`)).toMatchObject({ status: 409, json: { error: { code: 'assistant_voice_recording_busy' } } });
    // The holder gets past the lease to the (honest) model refusal.
    expect((await transcribe(`?owner_id=tab-a&lease_id=${a.result.lease_id}`)).json.error.code).toBe('asr_runtime_not_ready');
    await lease({ action: 'release', owner_id: 'tab-a', lease_id: a.result.lease_id });
    const b = await lease({ action: 'acquire', owner_id: 'tab-b', capture_mode: 'browser' });
    expect(await transcribe(`?owner_id=tab-b&lease_id=${b.result.lease_id}`)).toMatchObject({ status: 409, json: { error: { code: 'assistant_voice_recording_lease_mismatch' } } });
    await lease({ action: 'release', owner_id: 'tab-b', lease_id: b.result.lease_id });
  });
});

describe('GET …/transcriptions/ws', () => {
  it('needs owner_id and lease_id, and the live lease they name', async () => {
    expect(await wsOpen('')).toMatchObject({ status: 400, body: { error: { code: 'missing_owner_id' } } });
    expect(await wsOpen('?owner_id=tab-a')).toMatchObject({ status: 400, body: { error: { code: 'missing_lease_id' } } });
    expect(await wsOpen('?owner_id=tab-a&lease_id=vrl_nope')).toMatchObject({ status: 409, body: { error: { code: 'assistant_voice_recording_lease_lost' } } });
  });

  it('the lease holder without a loadable model is refused with the service error, not upgraded', async () => {
    const a = await lease({ action: 'acquire', owner_id: 'tab-ws', capture_mode: 'service' });
    const r = await wsOpen(`?owner_id=tab-ws&lease_id=${a.result.lease_id}`);
    expect(r.ws).toBeUndefined();
    expect(r).toMatchObject({ status: 409, body: { error: { code: 'asr_runtime_not_ready' } } });
    await lease({ action: 'release', owner_id: 'tab-ws', lease_id: a.result.lease_id });
  });
});

describe('auth', () => {
  it('with access tokens: 401 without one; a token scoped to another group is refused', async () => {
    const admin = createAccessToken(daemon.home, { admin: true });
    const other = createAccessToken(daemon.home, { groups: ['g_other0000000'] });
    try {
      expect((await transcribe()).status).toBe(401);
      const scoped = await transcribe('', wav, { authorization: `Bearer ${other.token}` });
      expect([401, 403, 404]).toContain(scoped.status);
      expect((await transcribe('', wav, { authorization: `Bearer ${admin.token}` })).json.error.code).toBe('asr_runtime_not_ready');
      expect((await wsOpen('?owner_id=x&lease_id=y')).status).toBe(401);
    } finally {
      revokeAccessToken(daemon.home, other.token);
      revokeAccessToken(daemon.home, admin.token);
    }
  });
});
