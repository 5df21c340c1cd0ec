import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { encodeWav } from '@cccc/voice';
import { startWebServer, type WebServer } from '../server.js';
import { snapshotApp } from '../testing/app-snapshot.js';
import { launchTestBrowser, saveScreenshot, type TestBrowser } from '../testing/browser.js';
import { startDaemonHome, until, type DaemonHome } from '../testing/harness.js';

// The meeting view (issue 27) in real Chromium against a real daemon and Web port.
//
// What is real: Chromium's fake capture device playing a WAV file through getUserMedia (the
// view's level meter reads that audio), the daemon recording lease (acquire, heartbeat, release),
// transcript segments appended through the Web API into the daemon's session and semantic input
// log, the daemon's session projection the view shows, document save / archive.
// What is NOT real: speech recognition. Headless Chromium has no Web Speech engine and no ASR
// model is reachable from this machine, so with browser_asr the test installs a stand-in
// SpeechRecognition in the page that "hears" one fixed phrase. The words come from the test,
// not from the audio. The working document's update is written the way the voice-secretary actor
// writes it (assistant_voice_document_save as voice-secretary); no agent runs here.

let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
let appDir: string;
let wavDir: string;

beforeAll(async () => {
  wavDir = mkdtempSync(join(tmpdir(), 'cccc-voice-wav-'));
  // 3 s of a 440 Hz tone at 16 kHz: audible, so the fake microphone has a level to show.
  const pcm = new Int16Array(16000 * 3).map((_, i) => Math.round(Math.sin((2 * Math.PI * 440 * i) / 16000) * 12000));
  writeFileSync(join(wavDir, 'meeting.wav'), encodeWav(pcm, 16000));
  appDir = await snapshotApp();
  daemon = await startDaemonHome();
  web = await startWebServer({ home: daemon.home, port: 0, appDir });
  browser = await launchTestBrowser([
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-audio-capture=${join(wavDir, 'meeting.wav')}`,
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

/** The stand-in recognizer (see the header): an interim result, then one final phrase. */
const STAND_IN_SPEECH_RECOGNITION = `
window.SpeechRecognition = class {
  constructor() { this.lang = ''; this.continuous = false; this.interimResults = false; this.onresult = null; this.onerror = null; this.onend = null; }
  start() {
    if (window.__standInSpoke) return;
    window.__standInSpoke = true;
    const result = (text, isFinal) => Object.assign([{ transcript: text }], { isFinal });
    setTimeout(() => this.onresult && this.onresult({ resultIndex: 0, results: [result('we ship', false)] }), 300);
    setTimeout(() => this.onresult && this.onresult({ resultIndex: 0, results: [result('We ship on Friday.', true)] }), 900);
  }
  stop() {}
};`;

it('records through the fake microphone under the lease, shows the appended segment and the document update, archives', async () => {
  const client = new DaemonClient({ home: daemon.home });
  const { group_id: gid } = await client.call('group_create', { title: 'meeting-e2e' });
  await client.call('actor_add', { group_id: gid, actor_id: 'lead', runtime: 'custom', command: ['true'] });
  await client.call('assistant_settings_update', { group_id: gid, by: 'user', assistant_id: 'voice_secretary', patch: { enabled: true, config: { recognition_backend: 'browser_asr' } } });
  const docPath = 'docs/voice-secretary/meeting.md';
  await client.call('assistant_voice_document_save', { group_id: gid, by: 'user', document_path: docPath, content: '# Meeting\n' });

  const { context, page } = await browser.newPage();
  await context.grantPermissions(['microphone'], { origin: web.url });
  await page.addInitScript(STAND_IN_SPEECH_RECOGNITION);
  await page.goto(`${web.url}/?group=${gid}`);
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Voice' }).click();
  const meeting = page.getByRole('region', { name: 'Meeting' });
  await meeting.getByText("Recognition: the browser's speech recognition").waitFor({ timeout: 30_000 });
  await meeting.getByRole('button', { name: 'Start recording' }).click();
  await until(async () => (await meeting.getByLabel('Recording state').textContent()) === 'recording', 'recording to start');

  // The lease is the daemon's: held by this browser, in browser capture mode.
  const status = await client.call('assistant_voice_recording_lease', { group_id: gid, by: 'user', action: 'status' });
  expect(status.lease).toMatchObject({ group_id: gid, capture_mode: 'browser', recognition_backend: 'browser_asr', dispatch_target: 'document' });

  // Real audio from the fake device reaches the page.
  await until(async () => Number(await meeting.getByLabel('Microphone level').getAttribute('data-level')) > 0.01, 'audio from the fake microphone');

  // The segment went through the Web API into the daemon, and the view shows the daemon's projection.
  await meeting.getByLabel('Meeting transcript').getByText('We ship on Friday.').waitFor({ timeout: 30_000 });
  const inputs = readFileSync(join(daemon.home, 'voice-secretary', gid, 'input_events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  expect(inputs.at(-1)).toMatchObject({ document_path: docPath, text: 'We ship on Friday.' });

  // The secretary's edit of the working document shows beside the transcript.
  await client.call('assistant_voice_document_save', { group_id: gid, by: 'voice-secretary', document_path: docPath, content: '# Meeting\n\n- Decision: ship on Friday.\n' });
  await meeting.getByLabel('Working document').getByText('Decision: ship on Friday.').waitFor({ timeout: 30_000 });
  await saveScreenshot(page, 'voice-meeting');

  await meeting.getByRole('button', { name: 'Stop recording' }).click();
  await until(async () => (await meeting.getByLabel('Recording state').textContent()) === 'idle', 'recording to stop');
  await until(async () => !(await client.call('assistant_voice_recording_lease', { group_id: gid, by: 'user', action: 'status' })).lease, 'the lease to be released');

  await meeting.getByLabel('Meeting documents').locator(`li[data-path="${docPath}"]`).getByRole('button', { name: 'Archive' }).click();
  await meeting.getByText('Archive (1)').waitFor({ timeout: 30_000 });
  await context.close();
}, 180_000);

it('service-local ASR: the view names what is missing, installs a manifest model, and refuses to record honestly when the engine cannot load it', async () => {
  const client = new DaemonClient({ home: daemon.home });
  const { group_id: gid } = await client.call('group_create', { title: 'meeting-service' });
  await client.call('actor_add', { group_id: gid, actor_id: 'lead', runtime: 'custom', command: ['true'] });
  await client.call('assistant_settings_update', { group_id: gid, by: 'user', assistant_id: 'voice_secretary', patch: { enabled: true, config: { recognition_backend: 'assistant_service_local_asr' } } });
  // A manifest model whose artifacts are test bytes (not a model): install verifies them; the engine cannot load them.
  const src = join(wavDir, 'model');
  mkdirSync(src, { recursive: true });
  const arts = ['model.onnx', 'tokens.txt'].map((name) => {
    writeFileSync(join(src, name), `bytes of ${name}`);
    return { path: name, url: pathToFileURL(join(src, name)).href, sha256: createHash('sha256').update(`bytes of ${name}`).digest('hex'), size: `bytes of ${name}`.length };
  });
  mkdirSync(join(daemon.home, 'config'), { recursive: true });
  writeFileSync(join(daemon.home, 'config', 'voice-models.json'), JSON.stringify({ models: [{ model_id: 'e2e-bytes', recognizer: { type: 'zipformer2_ctc', model: 'model.onnx', tokens: 'tokens.txt' }, artifacts: arts }] }));

  const { context, page } = await browser.newPage();
  await context.grantPermissions(['microphone'], { origin: web.url });
  await page.goto(`${web.url}/?group=${gid}`);
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Voice' }).click();
  const meeting = page.getByRole('region', { name: 'Meeting' });
  await meeting.getByLabel('Service ASR problems').getByText('voice_model_not_installed').waitFor({ timeout: 30_000 });
  await meeting.getByLabel('Voice models').locator('li[data-model-id="e2e-bytes"]').getByRole('button', { name: 'Install' }).click();
  await meeting.locator('li[data-model-id="e2e-bytes"][data-status="ready"]').waitFor({ timeout: 30_000 });
  await meeting.getByLabel('Service ASR problems').getByText('asr_backend_closed').waitFor({ timeout: 30_000 });

  await meeting.getByRole('button', { name: 'Start recording' }).click();
  await meeting.getByRole('alert').waitFor({ timeout: 30_000 });
  await until(async () => (await meeting.getByLabel('Recording state').textContent()) === 'idle', 'the refused recording to end');
  // Nothing is left holding the lease after the refusal.
  expect((await client.call('assistant_voice_recording_lease', { group_id: gid, by: 'user', action: 'status' })).lease).toBeUndefined();
  await saveScreenshot(page, 'voice-meeting-service');
  await context.close();
}, 180_000);
