import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import type { WebServer } from '../server.js';
import { saveScreenshot, type TestBrowser } from '../testing/browser.js';
import type { DaemonHome } from '../testing/harness.js';
import { useWebStack } from '../testing/web-stack.js';
import { webApi } from './fake-claude.js';

// The Voice tab (issue 26) in real Chromium against a real daemon: enable the Voice Secretary
// (its hidden actor from the foreman), create and select a working document, append transcript
// text (durable semantic input for that document), ask the secretary, see its reply, disable.
let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
useWebStack((stack) => ({ daemon, web, browser } = stack));

it('enables the secretary, creates a document, appends transcript, asks and shows the reply, disables', async () => {
  const { group_id: gid } = (await webApi(web.url, 'POST', '/groups', { title: 'voice-e2e' })) as { group_id: string };
  const client = new DaemonClient({ home: daemon.home });
  await client.call('actor_add', { group_id: gid, actor_id: 'lead', runtime: 'custom', command: ['true'] });

  const { context, page } = await browser.newPage();
  await page.goto(`${web.url}/?group=${gid}`);
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Voice' }).click();
  const enabled = page.getByLabel('Voice Secretary enabled');
  await enabled.waitFor({ timeout: 30_000 });
  expect(await enabled.isChecked()).toBe(false);
  await enabled.click(); // controlled: it turns on when the daemon answered
  await page.getByText('Voice Secretary enabled.').waitFor({ timeout: 30_000 });
  await page.getByText('actor voice-secretary: stopped').waitFor({ timeout: 30_000 });

  await page.getByLabel('New document path').fill('docs/voice-secretary/web.md');
  await page.getByRole('button', { name: 'Create document' }).click();
  const doc = page.locator('.voice-documents li[data-path="docs/voice-secretary/web.md"]');
  await doc.getByText('(active)').waitFor({ timeout: 30_000 });

  await page.getByLabel('Transcript segment').fill('We ship on Friday.');
  await page.getByRole('button', { name: 'Append transcript' }).click();
  await page.getByLabel('Session transcript').getByText('We ship on Friday.').waitFor({ timeout: 30_000 });
  const log = join(daemon.home, 'voice-secretary', gid, 'input_events.jsonl');
  expect(existsSync(log)).toBe(true);
  expect(JSON.parse(readFileSync(log, 'utf8').trim().split('\n')[0]!)).toMatchObject({ kind: 'asr_transcript', document_path: 'docs/voice-secretary/web.md', text: 'We ship on Friday.' });

  await page.getByLabel('Ask the secretary').fill('What did we decide?');
  await page.getByRole('button', { name: 'Ask' }).click();
  const askItem = page.locator('.voice-asks li', { hasText: 'What did we decide?' });
  await askItem.waitFor({ timeout: 30_000 });
  expect(await askItem.getAttribute('data-status')).toBe('pending');
  const { assistant } = await client.call('assistant_state', { group_id: gid, assistant_id: 'voice_secretary' });
  const requestId = ((assistant as { ask_requests: Array<{ request_id: string }> }).ask_requests[0]!).request_id;
  await client.call('assistant_voice_instruction_feedback', { group_id: gid, by: 'voice-secretary', request_id: requestId, status: 'done', reply_text: 'Ship on Friday.' });
  await askItem.locator('.voice-ask-reply', { hasText: 'Ship on Friday.' }).waitFor({ timeout: 30_000 });
  await saveScreenshot(page, 'voice-tab');

  await enabled.click();
  await page.getByText('actor voice-secretary: none').waitFor({ timeout: 30_000 });
  expect((await client.call('assistant_state', { group_id: gid, assistant_id: 'voice_secretary' })).assistant).toMatchObject({ enabled: false });
  await context.close();
}, 240_000);
