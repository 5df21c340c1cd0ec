import { readFileSync } from 'node:fs';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { encodeWav } from '@cccc/voice';
import { makeSyntheticAsrModel, SYNTHETIC_ASR_MODEL_TITLE, toneBursts } from '@cccc/voice/testing';
import { startWebServer, type WebServer } from '../server.js';
import { startDaemonHome, type DaemonHome } from '../testing/harness.js';

// The transcription endpoints past their refusals: a model that really loads in the real
// sherpa-onnx recognizer, installed through the manifest overlay and the file:// install path.
// The model is SYNTHETIC — an energy detector (libs/voice/test-fixtures/make_synthetic_asr_model.py),
// not speech recognition: each tone burst decodes to the token "x", silence to nothing. The words
// checked here are therefore a count of bursts, which is all this model can know.

const MODEL_ID = 'synthetic-energy-detector';
const MAX_SESSION_BYTES = 1024 * 1024;
let daemon: DaemonHome;
let web: WebServer;
let gid: string;
let client: DaemonClient;
const base = () => `${web.url}/api/v1/groups/${gid}/assistants/voice_secretary`;

beforeAll(async () => {
  daemon = await startDaemonHome();
  web = await startWebServer({ home: daemon.home, port: 0, voiceWs: { maxSessionBytes: MAX_SESSION_BYTES, leaseCheckMs: 300 } });
  client = new DaemonClient({ home: daemon.home });
  gid = (await client.call('group_create', { title: 'voice-synthetic-asr' })).group_id;
  await client.call('actor_add', { group_id: gid, actor_id: 'lead', runtime: 'custom', command: ['true'] });
  const entry = makeSyntheticAsrModel(join(daemon.home, 'model-src'), MODEL_ID);
  mkdirSync(join(daemon.home, 'config'), { recursive: true });
  writeFileSync(join(daemon.home, 'config', 'voice-models.json'), JSON.stringify({ models: [entry] }));
  const installed = await fetch(`${base()}/models/install`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model_id: MODEL_ID }) });
  expect(((await installed.json()) as any).result.model).toMatchObject({ model_id: MODEL_ID, status: 'ready', title: SYNTHETIC_ASR_MODEL_TITLE });
  await client.call('assistant_settings_update', {
    group_id: gid,
    by: 'user',
    assistant_id: 'voice_secretary',
    patch: { enabled: true, config: { recognition_backend: 'assistant_service_local_asr', service_model_id: MODEL_ID } },
  });
}, 180_000);
afterAll(async () => {
  await web?.close();
  await daemon?.stop();
}, 60_000);

async function lease(body: Record<string, unknown>) {
  const res = await fetch(`${base()}/recording_lease`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return ((await res.json()) as any).result;
}
const acquire = (owner_id: string) => lease({ action: 'acquire', owner_id, capture_mode: 'service', recognition_backend: 'assistant_service_local_asr' });

/** A WebSocket session that records every event and how it closed. */
class Session {
  readonly events: any[] = [];
  closed?: { code: number; reason: string };
  private waiters: Array<() => void> = [];
  constructor(readonly ws: WebSocket) {
    ws.on('message', (d, binary) => {
      if (!binary) this.events.push(JSON.parse(String(d)));
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
      this.wake();
    });
  }
  static open(owner_id: string, lease_id: string): Promise<Session> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${base().replace('http', 'ws')}/transcriptions/ws?owner_id=${owner_id}&lease_id=${lease_id}`, { headers: { origin: web.url } });
      ws.on('open', () => resolve(new Session(ws)));
      ws.on('unexpected-response', (_q, res) => reject(new Error(`not upgraded: ${res.statusCode}`)));
    });
  }
  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }
  async until(pred: () => boolean, what: string, ms = 30_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!pred()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(this.events)} closed=${JSON.stringify(this.closed)}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 200);
      });
    }
  }
  send(cmd: Record<string, unknown>) {
    this.ws.send(JSON.stringify(cmd));
  }
  async start(extra: Record<string, unknown> = {}) {
    this.send({ type: 'start', capture_mode: 'service', recognition_backend: 'assistant_service_local_asr', ...extra });
    await this.until(() => this.events.some((e) => e.type === 'ready' || e.type === 'error'), 'ready');
  }
  /** PCM16 in 200 ms frames, as the meeting view sends them. */
  sendPcm(pcm: Int16Array) {
    for (let i = 0; i < pcm.length; i += 3200) this.ws.send(Buffer.from(pcm.slice(i, i + 3200).buffer));
  }
}

describe('POST …/transcriptions with the synthetic model', () => {
  it('a WAV with two separated bursts transcribes to "xx"; silence to ""', async () => {
    const post = async (pcm: Int16Array) => {
      const res = await fetch(`${base()}/transcriptions?language=en`, { method: 'POST', headers: { 'content-type': 'audio/wav' }, body: encodeWav(pcm, 16000) });
      return { status: res.status, json: (await res.json()) as any };
    };
    const two = await post(toneBursts(2, { gap: 0.6 }));
    expect(two.status).toBe(200);
    expect(two.json.result).toMatchObject({
      group_id: gid,
      transcript: 'xx',
      mime_type: 'audio/wav',
      language: 'en',
      backend: 'assistant_service_local_asr',
      service: { ready: true, selected_model_id: MODEL_ID },
      asr: { model_id: MODEL_ID, sample_rate: 16000 },
    });
    expect(two.json.result.asr.duration_ms).toBe(Math.round((toneBursts(2, { gap: 0.6 }).length / 16000) * 1000));
    expect((await post(new Int16Array(16000))).json.result.transcript).toBe('');
  }, 60_000);
});

describe('the transcription WebSocket with the synthetic model', () => {
  it('lease, start, PCM frames → partials and one final per burst, appended to the session and input log; stop → final_asr_text, closed', async () => {
    const l = await acquire('tab-live');
    const s = await Session.open('tab-live', l.lease_id);
    await s.start({ session_id: 'vs_synthetic1', language: 'en' });
    expect(s.events[0]).toMatchObject({ type: 'ready', ok: true, session_id: 'vs_synthetic1', sample_rate: 16000, recording_segment_duration_ms: 1_500_000 });
    s.sendPcm(toneBursts(2)); // each burst is followed by 3 s of silence: past the 2.4 s endpoint rule
    await s.until(() => s.events.filter((e) => e.type === 'final').length === 2, 'two finals');
    s.send({ type: 'stop' });
    await s.until(() => s.closed !== undefined, 'close');

    const types = s.events.map((e) => e.type);
    expect(types.indexOf('partial')).toBeGreaterThan(0);
    expect(types.indexOf('partial')).toBeLessThan(types.indexOf('final'));
    expect(s.events.find((e) => e.type === 'partial')).toMatchObject({ text: 'x' });
    expect(s.events.filter((e) => e.type === 'final')).toEqual([
      { type: 'final', segment_id: 'seg_0001', text: 'x', transcript_persisted: true },
      { type: 'final', segment_id: 'seg_0002', text: 'x', transcript_persisted: true },
    ]);
    expect(s.events.find((e) => e.type === 'final_asr_text')).toMatchObject({
      ok: true,
      text: 'x x',
      segments: [
        { segment_id: 'seg_0001', text: 'x', persisted: true },
        { segment_id: 'seg_0002', text: 'x', persisted: true },
      ],
      transcript_persistence: 'persisted',
      transcript_persisted: true,
    });
    expect(types.slice(-2)).toEqual(['final_asr_text', 'closed']);
    expect(s.closed).toMatchObject({ code: 1000 });

    // The daemon holds them: in the session projection and the semantic input log.
    const view = await client.call('assistant_state', { group_id: gid, view: 'voice_session', session_id: 'vs_synthetic1' });
    expect((view.session as any).segments.map((g: any) => [g.segment_id, g.text])).toEqual([
      ['seg_0001', 'x'],
      ['seg_0002', 'x'],
    ]);
    const inputs = readFileSync(join(daemon.home, 'voice-secretary', gid, 'input_events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(inputs.filter((i) => i.session_id === 'vs_synthetic1').map((i) => i.text)).toEqual(['x', 'x']);
    // Live finals are meeting-window flushes; only stop is the stop flush that asks for one idle review.
    expect(inputs.map((i) => [i.kind, i.trigger.trigger_kind, i.trigger.reason])).toEqual([
      ['asr_transcript', 'meeting_window', undefined],
      ['asr_transcript', 'meeting_window', undefined],
      ['idle_review', 'idle_review', 'stop_flush'],
    ]);
    await lease({ action: 'release', owner_id: 'tab-live', lease_id: l.lease_id });
  }, 90_000);

  it('a start frame outside the lease capture scope is assistant_voice_recording_lease_mismatch and closes', async () => {
    const l = await acquire('tab-scope');
    const s = await Session.open('tab-scope', l.lease_id);
    await s.start({ capture_mode: 'browser' });
    await s.until(() => s.closed !== undefined, 'close');
    expect(s.events).toEqual([expect.objectContaining({ type: 'error', error: expect.objectContaining({ code: 'assistant_voice_recording_lease_mismatch', details: { field: 'capture_mode' } }) })]);
    expect(s.closed).toMatchObject({ code: 1008, reason: 'assistant_voice_recording_lease_mismatch' });
    await lease({ action: 'release', owner_id: 'tab-scope', lease_id: l.lease_id });
  }, 60_000);

  it('audio before the start frame is asr_stream_not_started', async () => {
    const l = await acquire('tab-early');
    const s = await Session.open('tab-early', l.lease_id);
    s.sendPcm(new Int16Array(1600));
    await s.until(() => s.closed !== undefined, 'close');
    expect(s.events[0]).toMatchObject({ type: 'error', error: { code: 'asr_stream_not_started' } });
    await lease({ action: 'release', owner_id: 'tab-early', lease_id: l.lease_id });
  }, 60_000);

  it('a binary frame over 64 KiB closes the socket with 1009 (message too big)', async () => {
    const l = await acquire('tab-frame');
    const s = await Session.open('tab-frame', l.lease_id);
    await s.start();
    s.ws.send(Buffer.alloc(64 * 1024 + 2));
    await s.until(() => s.closed !== undefined, 'close');
    expect(s.closed!.code).toBe(1009);
    expect(s.events.some((e) => e.type === 'final')).toBe(false);
    await lease({ action: 'release', owner_id: 'tab-frame', lease_id: l.lease_id });
  }, 60_000);

  it('past the session byte bound: audio_too_large, and the socket closes', async () => {
    const l = await acquire('tab-bytes');
    const s = await Session.open('tab-bytes', l.lease_id);
    await s.start();
    const frame = Buffer.alloc(60 * 1024);
    for (let sent = 0; sent <= MAX_SESSION_BYTES; sent += frame.length) s.ws.send(frame);
    await s.until(() => s.closed !== undefined, 'close');
    expect(s.events.at(-1)).toMatchObject({ type: 'error', error: { code: 'audio_too_large' } });
    expect(s.closed).toMatchObject({ code: 1008, reason: 'audio_too_large' });
    await lease({ action: 'release', owner_id: 'tab-bytes', lease_id: l.lease_id });
  }, 60_000);

  it('the lease lost mid-session (released elsewhere) ends the session with assistant_voice_recording_lease_lost', async () => {
    const l = await acquire('tab-lost');
    const s = await Session.open('tab-lost', l.lease_id);
    await s.start({ session_id: 'vs_lost' });
    s.sendPcm(toneBursts(1, { gap: 0.2 }));
    await s.until(() => s.events.some((e) => e.type === 'partial'), 'a partial');
    await client.call('assistant_voice_recording_lease', { group_id: gid, by: 'user', action: 'release', owner_id: 'tab-lost', lease_id: l.lease_id });
    await s.until(() => s.closed !== undefined, 'close', 15_000);
    expect(s.events.at(-1)).toMatchObject({ type: 'error', error: { code: 'assistant_voice_recording_lease_lost' } });
    expect(s.closed).toMatchObject({ code: 1008, reason: 'assistant_voice_recording_lease_lost' });
    // Nothing reached an endpoint, so nothing was appended for that session.
    const view = await client.call('assistant_state', { group_id: gid, view: 'voice_session', session_id: 'vs_lost' });
    expect(((view.session as any)?.segments ?? []).length).toBe(0);
  }, 60_000);
});
