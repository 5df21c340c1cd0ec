import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { encodeWav } from '@cccc/voice';
import { makeSyntheticAsrModel, toneBursts } from '@cccc/voice/testing';
import { startWebServer, type WebServer } from '../server.js';
import { snapshotApp } from '../testing/app-snapshot.js';
import { launchTestBrowser, saveScreenshot, type TestBrowser } from '../testing/browser.js';
import { startDaemonHome, until, type DaemonHome } from '../testing/harness.js';

// The meeting view recording through service-local ASR, end to end with nothing stood in:
// Chromium's fake microphone plays a WAV of tone bursts → the view's PCM16 frames → the
// transcription WebSocket → the real sherpa-onnx recognizer in the Web's ASR host → final
// segments appended into the daemon → the view's live transcript from the daemon's projection.
// The model is the SYNTHETIC test model — an energy detector, not speech recognition
// (libs/voice/test-fixtures/make_synthetic_asr_model.py): each burst is the token "x". The
// transcript therefore says how many bursts were heard, never what was said.

const MODEL_ID = 'synthetic-energy-detector';
let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
let appDir: string;
let wavDir: string;

beforeAll(async () => {
  wavDir = mkdtempSync(join(tmpdir(), 'cccc-voice-bursts-'));
  // Chromium loops the file: bursts of 0.4 s each followed by 3 s of silence (past the endpoint rule).
  writeFileSync(join(wavDir, 'bursts.wav'), encodeWav(toneBursts(2), 16000));
  appDir = await snapshotApp();
  daemon = await startDaemonHome();
  web = await startWebServer({ home: daemon.home, port: 0, appDir });
  browser = await launchTestBrowser([
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-audio-capture=${join(wavDir, 'bursts.wav')}`,
    '--autoplay-policy=no-user-gesture-required',
  ]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await web?.close();
  await daemon?.stop();
  rmSync(appDir, { recursive: true, force: true });
  rmSync(wavDir, { recursive: true, force: true });
}, 60_000);

it('records tone bursts through the fake microphone and service ASR; final segments reach the daemon and the view', async () => {
  const client = new DaemonClient({ home: daemon.home });
  const { group_id: gid } = await client.call('group_create', { title: 'meeting-synthetic-asr' });
  await client.call('actor_add', { group_id: gid, actor_id: 'lead', runtime: 'custom', command: ['true'] });
  const entry = makeSyntheticAsrModel(join(wavDir, 'model'), MODEL_ID);
  mkdirSync(join(daemon.home, 'config'), { recursive: true });
  writeFileSync(join(daemon.home, 'config', 'voice-models.json'), JSON.stringify({ models: [entry] }));
  await client.call('assistant_voice_model_install', { group_id: gid, by: 'user', model_id: MODEL_ID });
  await client.call('assistant_settings_update', {
    group_id: gid,
    by: 'user',
    assistant_id: 'voice_secretary',
    patch: { enabled: true, config: { recognition_backend: 'assistant_service_local_asr', service_model_id: MODEL_ID } },
  });

  const { context, page } = await browser.newPage();
  await context.grantPermissions(['microphone'], { origin: web.url });
  await page.goto(`${web.url}/?group=${gid}`);
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Voice' }).click();
  const meeting = page.getByRole('region', { name: 'Meeting' });
  // The view names the model for what it is.
  await meeting.getByLabel('Voice models').getByText('synthetic test model, energy detector, not speech recognition').waitFor({ timeout: 30_000 });
  await meeting.getByRole('button', { name: 'Start recording' }).click();
  await until(async () => (await meeting.getByLabel('Recording state').textContent()) === 'recording', 'recording to start');
  const status = await client.call('assistant_voice_recording_lease', { group_id: gid, by: 'user', action: 'status' });
  expect(status.lease).toMatchObject({ capture_mode: 'service', recognition_backend: 'assistant_service_local_asr' });

  // Bursts heard: final segments of "x"s (one per burst), shown from the daemon's projection.
  // Under load the browser's fake capture can close up a silence between bursts, so a segment
  // may hold two or three of them ("xxx", seen in CI); every one is still a run of bursts.
  const finals = meeting.getByLabel('Meeting transcript').locator('li[data-segment-id]');
  await until(async () => (await finals.count()) >= 2, 'two final segments', 60_000);
  for (const text of (await finals.allTextContents()).slice(0, 2)) expect(text).toMatch(/^x+$/);
  await saveScreenshot(page, 'voice-meeting-service-asr');

  await meeting.getByRole('button', { name: 'Stop recording' }).click();
  await until(async () => (await meeting.getByLabel('Recording state').textContent()) === 'idle', 'recording to stop');
  await until(async () => !(await client.call('assistant_voice_recording_lease', { group_id: gid, by: 'user', action: 'status' })).lease, 'the lease to be released');
  const inputs = readFileSync(join(daemon.home, 'voice-secretary', gid, 'input_events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  // The live finals reached the semantic input log; the stop flush asked for one idle review, last.
  const heard = inputs.filter((i) => i.kind === 'asr_transcript').slice(0, 2).map((i) => String(i.text));
  expect(heard).toHaveLength(2);
  for (const text of heard) expect(text).toMatch(/^x+$/);
  expect(inputs.filter((i) => i.kind === 'idle_review').map((i) => i.trigger.reason)).toEqual(['stop_flush']);
  expect(inputs.at(-1)).toMatchObject({ kind: 'idle_review' });
  await context.close();
}, 180_000);
