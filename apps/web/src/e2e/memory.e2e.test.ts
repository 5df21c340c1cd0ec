import { expect, it } from 'vitest';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import type { WebServer } from '../server.js';
import { saveScreenshot, type TestBrowser } from '../testing/browser.js';
import type { DaemonHome } from '../testing/harness.js';
import { useWebStack } from '../testing/web-stack.js';
import { webApi } from './fake-claude.js';

// The Memory view (issue 28): a search box over the group's memory (memory_reme_search), with a
// real daemon holding entries written through memory_reme_write.
let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
useWebStack((stack) => ({ daemon, web, browser } = stack));

it('searches the group memory and shows the best hit first with its file, lines and highlighted words', async () => {
  const { group_id: gid } = (await webApi(web.url, 'POST', '/groups', { title: 'memory-e2e' })) as { group_id: string };
  const client = new DaemonClient({ home: daemon.home });
  await client.call('memory_reme_write', { group_id: gid, target: 'memory', content: 'The parser uses a Pratt loop for operators.' });
  await client.call('memory_reme_write', { group_id: gid, target: 'daily', date: '2026-11-29', content: 'Benchmarked the Pratt parser: 3 ms a file.' });

  const { context, page } = await browser.newPage();
  await page.goto(`${web.url}/?group=${gid}`);
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Memory' }).click();
  await page.getByLabel('Search memory').fill('pratt operators');
  await page.getByRole('button', { name: 'Search' }).click();
  const hits = page.locator('.memory-hits li');
  await hits.nth(1).waitFor({ timeout: 30_000 });
  expect(await hits.count()).toBe(2);
  expect(await hits.nth(0).locator('code').textContent()).toBe('MEMORY.md');
  expect(await hits.nth(0).locator('mark').allTextContents()).toEqual(['Pratt', 'operators']);
  expect(await hits.nth(1).locator('code').textContent()).toBe('daily/2026-11-29__memory-e2e.md');
  await saveScreenshot(page, 'memory-search');

  await page.getByLabel('Search memory').fill('nothing-like-this');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByText('No memory matches “nothing-like-this”.').waitFor({ timeout: 30_000 });
  await context.close();
}, 180_000);
