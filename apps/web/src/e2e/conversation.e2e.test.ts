import { DaemonClient } from '@cccc/ipc-protocol/node';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WebServer } from '../server.js';
import { savePhoneScreenshot, saveScreenshot, type TestBrowser } from '../testing/browser.js';
import { until, type DaemonHome } from '../testing/harness.js';
import { useWebStack } from '../testing/web-stack.js';
import { groupWithScope, webApi } from './fake-claude.js';
import { gradientPng } from './png.js';

// Issue 32, "messages as a conversation", in Chromium against a real daemon: sides, avatars,
// the foreman marker, runtimes, recipients, mode, times and day separators, the replied-to quote,
// image previews, folding long messages, and Jump to latest.
let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
let client: DaemonClient;
let gid: string;
useWebStack((stack) => ({ daemon, web, browser } = stack));

beforeAll(async () => {
  client = new DaemonClient({ home: daemon.home });
  gid = await groupWithScope(web.url, daemon.home, 'conversation-e2e');
  await webApi(web.url, 'POST', `/groups/${gid}/actors`, { actor_id: 'lead', title: 'Lead Dev', runtime: 'custom', command: fakeAgentArgv([]) });
  await webApi(web.url, 'POST', `/groups/${gid}/actors`, { actor_id: 'peer1', runtime: 'custom', command: fakeAgentArgv([]) });
  await webApi(web.url, 'POST', `/groups/${gid}/start`);
  await until(async () => (await client.call('actor_list', { group_id: gid })).actors.every((a) => a.running), 'both actors running', 60_000);
}, 120_000);

const bubble = (page: Page, text: string) => page.locator('article.msg', { hasText: text });
const box = (page: Page) => page.getByRole('textbox', { name: 'Message', exact: true });

describe('the conversation', () => {
  it('the user on the right, agents on the left with avatar, foreman marker and runtime; recipients, mode, time and the day', async () => {
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    // To: by chip (the title shows on the chip), then the text.
    await page.getByRole('group', { name: 'Send to' }).getByRole('button', { name: 'Lead Dev' }).click();
    await box(page).fill('hello lead, please run the tests');
    await box(page).press('Enter');
    await bubble(page, 'hello lead, please run the tests').waitFor({ timeout: 30_000 });
    const asked = (await bubble(page, 'hello lead, please run the tests').getAttribute('data-event-id'))!;
    // (by id: the answer's quote repeats this text)
    const mine = page.locator(`article.msg[data-event-id="${asked}"]`);
    expect(await mine.getAttribute('data-side')).toBe('mine');
    expect(await mine.locator('.msg-to').textContent()).toContain('lead');
    expect(await mine.locator('.msg-sender').textContent()).toBe('You');
    // The chip is released after sending.
    expect(await page.getByRole('group', { name: 'Send to' }).getByRole('button', { name: 'Lead Dev' }).getAttribute('aria-pressed')).toBe('false');

    await client.call('reply', { group_id: gid, reply_to: asked, text: '**On it.** Running `npm test` now.', by: 'lead' });
    const theirs = bubble(page, 'Running npm test now');
    await theirs.waitFor({ timeout: 30_000 });
    expect(await theirs.getAttribute('data-side')).toBe('theirs');
    expect(await theirs.locator('.msg-sender').textContent()).toBe('Lead Dev');
    expect(await theirs.locator('.avatar').textContent()).toBe('LD');
    expect(await theirs.locator('.foreman-mark').textContent()).toContain('foreman');
    expect(await theirs.locator('.runtime-tag').textContent()).toBe('custom');
    expect(await theirs.locator('.mode-chip').textContent()).toBe('send');
    // Agents' bubbles sit left of the user's.
    const [a, b] = [await mine.locator('.msg-bubble').boundingBox(), await theirs.locator('.msg-bubble').boundingBox()];
    expect(b!.x).toBeLessThan(a!.x);
    expect(a!.x + a!.width).toBeGreaterThan(b!.x + b!.width);
    // Markdown, not raw asterisks and backticks.
    await theirs.locator('.msg-text strong', { hasText: 'On it.' }).waitFor({ timeout: 30_000 });
    expect(await theirs.locator('.msg-text code').textContent()).toBe('npm test');
    // The quote of the message it answers; clicking it brings that message into focus.
    expect(await theirs.locator('.msg-quote').textContent()).toContain('hello lead, please run the tests');
    await theirs.locator('.msg-quote').click();
    await expect.poll(() => mine.getAttribute('data-focused')).toBe('true');
    // Relative time, the full date on hover, and the day's separator.
    expect(await theirs.locator('.msg-time').textContent()).toBe('just now');
    expect(await theirs.locator('.msg-time').getAttribute('title')).toContain(String(new Date().getFullYear()));
    expect(await page.locator('.day-sep').first().textContent()).toBe('Today');

    // A message to the whole team shows its selector chip; the mode goes back to send.
    await page.getByLabel('Message mode').selectOption('request_reply');
    await page.getByRole('group', { name: 'Send to' }).getByRole('button', { name: 'peer1' }).click();
    await box(page).fill('peer1, which branch are you on?');
    await box(page).press('Enter');
    await bubble(page, 'which branch are you on').waitFor({ timeout: 30_000 });
    expect(await bubble(page, 'which branch are you on').locator('.mode-chip').textContent()).toBe('request reply');
    await expect.poll(() => page.getByLabel('Message mode').inputValue()).toBe('send');
    await client.call('send', { group_id: gid, text: '## Status\n\n- tests: **green**\n- lint: 2 warnings\n\n```ts\nconst ok: boolean = true;\n```', to: ['user'], message_mode: 'send', by: 'peer1' });
    await bubble(page, 'lint: 2 warnings').locator('.msg-text h2').waitFor({ timeout: 30_000 });
    await saveScreenshot(page, 'conversation-desktop');
    await savePhoneScreenshot(browser, `${web.url}/?group=${gid}`, 'conversation', (p) => bubble(p, 'lint: 2 warnings').locator('.msg-text h2').waitFor({ timeout: 30_000 }));
    await context.close();
  }, 180_000);

  it('previews an image attachment, folds a long message behind Show more, and Jump to latest returns to the newest', async () => {
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    await page.getByLabel('Attach files').setInputFiles({ name: 'chart.png', mimeType: 'image/png', buffer: gradientPng(320, 180) });
    await box(page).fill('@lead the chart from the benchmark');
    await box(page).press('Enter');
    const withImage = bubble(page, 'the chart from the benchmark');
    const img = withImage.locator('.att-image img');
    await img.waitFor({ timeout: 30_000 });
    await expect.poll(() => img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth), { timeout: 30_000 }).toBe(320);
    expect(await withImage.locator('.att-caption').textContent()).toContain('chart.png');

    const long = Array.from({ length: 60 }, (_, i) => `- step ${i + 1}: checked`).join('\n');
    await client.call('send', { group_id: gid, text: `Long report:\n\n${long}\n\nEND OF REPORT`, to: ['user'], message_mode: 'send', by: 'lead' });
    const report = bubble(page, 'Long report');
    const more = report.getByRole('button', { name: 'Show more' });
    await more.waitFor({ timeout: 30_000 });
    const folded = (await report.boundingBox())!.height;
    expect(folded).toBeLessThan(500);
    await saveScreenshot(page, 'conversation-folded-desktop');
    await more.click();
    await report.getByRole('button', { name: 'Show less' }).waitFor();
    await expect.poll(async () => (await report.boundingBox())!.height).toBeGreaterThan(folded + 300);

    for (let i = 0; i < 25; i++) await client.call('send', { group_id: gid, text: `progress note ${i}`, to: ['user'], message_mode: 'send', by: 'peer1' });
    await bubble(page, 'progress note 24').waitFor({ timeout: 30_000 });
    await page.locator('.timeline').evaluate((el) => (el.scrollTop = 0));
    const jump = page.getByRole('button', { name: '↓ Jump to latest' });
    await jump.waitFor({ timeout: 10_000 });
    await saveScreenshot(page, 'conversation-scrolled-desktop');
    await jump.click();
    await bubble(page, 'progress note 24').waitFor({ timeout: 10_000 });
    await expect.poll(() => jump.count()).toBe(0);

    // The browser reports a scroll with the next frame, and a render can run first (a message
    // arrives, a row is re-measured). Here the view goes to the top and, in the same task, Reply
    // on a row re-renders the list before the scroll event: the user must stay up, not be pulled
    // back to the bottom.
    await page.evaluate("(() => { const list = document.querySelector('.timeline'); list.scrollTop = 0; list.querySelector('.msg-reply').click(); })()");
    await jump.waitFor({ timeout: 10_000 });
    await savePhoneScreenshot(browser, `${web.url}/?group=${gid}`, 'conversation-attachments', (p) => bubble(p, 'progress note 24').waitFor({ timeout: 30_000 }));
    await context.close();
  }, 180_000);
});
