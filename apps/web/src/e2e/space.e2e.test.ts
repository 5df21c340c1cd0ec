import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { WebServer } from '../server.js';
import { saveScreenshot, type TestBrowser } from '../testing/browser.js';
import type { DaemonHome } from '../testing/harness.js';
import { useWebStack } from '../testing/web-stack.js';
import { webApi } from './fake-claude.js';

// The Space tab (issue 29): a real daemon's Group Space, bound to the embedded local provider
// from the page, fed from the repo space/ folder and a typed text source, asked a question whose
// answer cites its sources.
let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
useWebStack((stack) => ({ daemon, web, browser } = stack));

it('binds the work lane, ingests the space/ folder and a text source, lists sources and jobs, and shows a cited answer', async () => {
  const repo = join(daemon.home, 'projects', 'space-e2e');
  mkdirSync(join(repo, 'space'), { recursive: true });
  writeFileSync(join(repo, 'space', 'design.md'), '# Design\n\nThe daemon speaks NDJSON over a unix socket.\n');
  const { group_id: gid } = (await webApi(web.url, 'POST', '/groups', { title: 'space-e2e' })) as { group_id: string };
  await webApi(web.url, 'POST', `/groups/${gid}/attach`, { path: repo });

  const { context, page } = await browser.newPage();
  await page.goto(`${web.url}/?group=${gid}`);
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Space' }).click();
  const work = page.locator('.space-bindings tr[data-lane="work"]');
  await work.locator('.space-binding-status', { hasText: 'unbound' }).waitFor({ timeout: 30_000 });
  expect(await page.locator('.space-provider').textContent()).toContain('notebooklm: disabled');

  // An unbound lane answers degraded, not an error.
  await page.getByLabel('Ask the space').fill('socket');
  await page.getByRole('button', { name: 'Ask' }).click();
  await page.getByText('No answer: the work lane is unbound (disabled).').waitFor({ timeout: 30_000 });

  await page.getByRole('button', { name: 'Bind work lane to the local provider' }).click();
  await work.locator('.space-binding-status', { hasText: /^bound$/ }).waitFor({ timeout: 30_000 });
  expect(await work.locator('td').nth(1).textContent()).toBe('local');

  await page.getByRole('button', { name: 'Ingest the repo space/ folder' }).click();
  await page.locator('.space-sources li', { hasText: 'design.md' }).waitFor({ timeout: 30_000 });
  await page.getByLabel('Source title').fill('Storage');
  await page.getByLabel('Source text').fill('The ledger is JSONL and its index is SQLite FTS5.');
  await page.getByRole('button', { name: 'Add source' }).click();
  await page.locator('.space-sources li', { hasText: 'Storage' }).waitFor({ timeout: 30_000 });
  expect(await page.locator('.space-sources li').count()).toBe(2);
  expect(await page.locator('.space-jobs li[data-state="succeeded"]').count()).toBe(2);

  await page.getByLabel('Ask the space').fill('what does the daemon speak over the socket?');
  await page.getByRole('button', { name: 'Ask' }).click();
  const refs = page.locator('.space-references li');
  await refs.first().waitFor({ timeout: 30_000 });
  expect(await refs.count()).toBe(2); // design.md holds every term; Storage shares only "the"
  expect(await refs.nth(1).locator('.space-ref-title').textContent()).toBe('Storage');
  expect(await refs.first().locator('.space-ref-title').textContent()).toBe('design.md');
  expect(await refs.first().locator('mark').allTextContents()).toContain('socket');
  expect(await page.locator('.space-answer').textContent()).toContain('NDJSON');
  expect(await page.locator('.space-answer .space-cite').first().textContent()).toBe('[1]');
  await saveScreenshot(page, 'space-query');

  // The memory lane is separate: unbound, no jobs.
  await page.getByRole('radio', { name: 'Memory lane' }).click();
  await page.getByText('No memory-lane jobs.').waitFor({ timeout: 30_000 });
  await context.close();
}, 180_000);
