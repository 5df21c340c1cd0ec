import { DaemonClient } from '@cccc/ipc-protocol/node';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WebServer } from '../server.js';
import { savePhoneScreenshot, saveScreenshot, type TestBrowser } from '../testing/browser.js';
import type { DaemonHome } from '../testing/harness.js';
import { useWebStack } from '../testing/web-stack.js';
import { groupWithScope, webApi } from './fake-claude.js';

// Issue 32, composer and filters: To: chips for @all / @foreman / @peers / each actor, the mode
// back to send after each message, search results as you type, and the all / from user / needs
// reply / unread filters following the ledger live. The actors are registered but not started:
// Mail and reply obligations are ledger facts, no agent has to run.
let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
let client: DaemonClient;
let gid: string;
useWebStack((stack) => ({ daemon, web, browser } = stack));

beforeAll(async () => {
  client = new DaemonClient({ home: daemon.home });
  gid = await groupWithScope(web.url, daemon.home, 'composer-e2e');
  for (const id of ['lead', 'peer1', 'peer2']) await webApi(web.url, 'POST', `/groups/${gid}/actors`, { actor_id: id, runtime: 'custom', command: fakeAgentArgv([]) });
}, 120_000);

const box = (page: Page) => page.getByRole('textbox', { name: 'Message', exact: true });
const chips = (page: Page) => page.getByRole('group', { name: 'Send to' });
const bubble = (page: Page, text: string) => page.locator('article.msg', { hasText: text });
const shownTexts = async (page: Page) => (await page.locator('article.msg .msg-text').allTextContents()).map((t) => t.trim());

describe('composer', () => {
  it('To: chips for the selectors and each actor; @-names in the text press their chip; the mode returns to send', async () => {
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    await expect.poll(() => chips(page).getByRole('button').allTextContents(), { timeout: 30_000 }).toEqual(['@all', '@foreman', '@peers', 'lead', 'peer1', 'peer2']);
    expect(await chips(page).textContent()).toContain('To:');
    expect(await chips(page).textContent()).toContain('the group default');

    await chips(page).getByRole('button', { name: '@peers' }).click();
    await box(page).fill('hello @peer1 and the other peers');
    // The name in the text presses peer1's chip too.
    expect(await chips(page).getByRole('button', { name: 'peer1', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await page.getByLabel('Message mode').selectOption('mail');
    await saveScreenshot(page, 'composer-chips-desktop');
    await box(page).press('Enter');
    const sent = bubble(page, 'hello @peer1 and the other peers');
    await sent.waitFor({ timeout: 30_000 });
    expect(await sent.locator('.msg-to .to-chip').allTextContents()).toEqual(['@peers', 'peer1']);
    expect(await sent.locator('.mode-chip').textContent()).toBe('mail');
    // After sending: chips released, mode back to send.
    await expect.poll(() => page.getByLabel('Message mode').inputValue()).toBe('send');
    expect(await chips(page).getByRole('button', { name: '@peers' }).getAttribute('aria-pressed')).toBe('false');

    // A refused combination says why and keeps the text.
    await page.getByLabel('Message mode').selectOption('request_reply');
    await chips(page).getByRole('button', { name: '@all' }).click();
    await box(page).fill('who owns the release?');
    await box(page).press('Enter');
    await page.getByRole('alert').filter({ hasText: 'concrete_recipients_required' }).waitFor({ timeout: 30_000 });
    expect(await box(page).inputValue()).toBe('who owns the release?');
    await chips(page).getByRole('button', { name: '@all' }).click();
    await chips(page).getByRole('button', { name: 'lead' }).click();
    await box(page).press('Enter');
    await bubble(page, 'who owns the release?').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByLabel('Message mode').inputValue()).toBe('send');
    await savePhoneScreenshot(browser, `${web.url}/?group=${gid}`, 'composer', (p) => bubble(p, 'who owns the release?').waitFor({ timeout: 30_000 }));
    await context.close();
  }, 120_000);

  it('search shows results as you type, without Enter, and clearing it returns to the conversation', async () => {
    await client.call('send', { group_id: gid, by: 'lead', to: ['user'], message_mode: 'send', text: 'the flaky test is in parser.spec.ts' });
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    await bubble(page, 'flaky test').waitFor({ timeout: 30_000 });
    await page.getByLabel('Search messages').pressSequentially('parser.sp', { delay: 40 });
    const back = page.getByRole('button', { name: /^Back to chat/ });
    await back.waitFor({ timeout: 10_000 });
    expect(await back.textContent()).toBe('Back to chat (1 found)');
    expect(await shownTexts(page)).toEqual(['the flaky test is in parser.spec.ts']);
    await saveScreenshot(page, 'search-desktop');
    await page.getByLabel('Search messages').fill('');
    await expect.poll(() => back.count(), { timeout: 10_000 }).toBe(0);
    await bubble(page, 'who owns the release?').waitFor();
    await context.close();
  }, 120_000);
});

describe('filters', () => {
  it('all / from user / needs reply / unread follow the ledger', async () => {
    const ask = await client.call('send', { group_id: gid, by: 'user', to: ['peer2'], message_mode: 'request_reply', text: 'peer2: estimate for the migration?' });
    await client.call('send', { group_id: gid, by: 'lead', to: ['user'], message_mode: 'request_reply', text: 'May I delete the old fixtures?' });
    await client.call('send', { group_id: gid, by: 'peer1', to: ['user'], message_mode: 'send', text: 'FYI: CI is green' });

    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    await bubble(page, 'FYI: CI is green').waitFor({ timeout: 30_000 });
    const filter = (name: string) => page.getByRole('radiogroup', { name: 'Show' }).getByRole('radio', { name });

    await filter('From user').click();
    await expect.poll(() => shownTexts(page), { timeout: 10_000 }).toEqual(['hello @peer1 and the other peers', 'who owns the release?', 'peer2: estimate for the migration?']);

    // Needs reply: the user's open requests and the agent's request to the user.
    await filter('Needs reply').click();
    await expect.poll(() => shownTexts(page), { timeout: 30_000 }).toEqual(['who owns the release?', 'peer2: estimate for the migration?', 'May I delete the old fixtures?']);
    await saveScreenshot(page, 'filters-needs-reply-desktop');
    await savePhoneScreenshot(browser, `${web.url}/?group=${gid}`, 'filters', async (p) => {
      await p.getByRole('radio', { name: 'Needs reply' }).click();
      await p.locator('article.msg', { hasText: 'May I delete' }).waitFor({ timeout: 30_000 });
    });
    // Answers close them, live: peer2 replies; the user answers the agent from the bubble.
    await client.call('reply', { group_id: gid, by: 'peer2', reply_to: ask.event.id, text: 'about two days' });
    await expect.poll(() => shownTexts(page), { timeout: 30_000 }).toEqual(['who owns the release?', 'May I delete the old fixtures?']);
    await bubble(page, 'May I delete').getByRole('button', { name: /^Reply to / }).click();
    await box(page).fill('yes, go ahead');
    await box(page).press('Enter');
    await expect.poll(() => shownTexts(page), { timeout: 30_000 }).toEqual(['who owns the release?']);

    // Unread: Mail a recipient has not read; marking peer1's inbox read removes it.
    await filter('Unread').click();
    await expect.poll(() => shownTexts(page), { timeout: 30_000 }).toEqual(['hello @peer1 and the other peers']);
    await webApi(web.url, 'POST', `/groups/${gid}/inbox/peer1/read`, {});
    await webApi(web.url, 'POST', `/groups/${gid}/inbox/peer2/read`, {});
    await page.getByText('No messages match this filter.').waitFor({ timeout: 30_000 });

    await filter('All').click();
    await bubble(page, 'FYI: CI is green').waitFor({ timeout: 10_000 });
    await context.close();
  }, 180_000);
});
