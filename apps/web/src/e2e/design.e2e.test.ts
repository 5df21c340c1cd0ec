import { DaemonClient } from '@cccc/ipc-protocol/node';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { WebServer } from '../server.js';
import type { TestBrowser } from '../testing/browser.js';
import type { DaemonHome } from '../testing/harness.js';
import { useWebStack } from '../testing/web-stack.js';

// The Web as a product (issue 33) in a real Chromium against a real daemon: themes.

let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
useWebStack((s) => ({ daemon, web, browser } = s));

// Evaluated as strings: this file is typed for Node, without the DOM library.
const background = (page: Page) => page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor');
const themeAttr = (page: Page) => page.evaluate<string | undefined>('document.documentElement.dataset.theme');

/** Theme and language live in the Preferences dialog off the top bar. */
async function openPreferences(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Preferences' }).click();
  await page.getByRole('dialog', { name: 'Preferences' }).waitFor({ timeout: 30_000 });
}

async function groupWithActor(title: string): Promise<string> {
  const client = new DaemonClient({ home: daemon.home });
  const { group_id: gid } = await client.call('group_create', { title, by: 'user' });
  await client.call('actor_add', { group_id: gid, actor_id: 'lead', runtime: 'custom', command: ['cat'], by: 'user' });
  return gid;
}

describe('themes', () => {
  it('follows the OS by default, switches, and remembers the choice across a reload with no flash', async () => {
    const gid = await groupWithActor('themes');
    const { context, page } = await browser.newPage();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${web.url}/?group=${gid}`);
    await openPreferences(page);
    const theme = page.getByLabel('Theme');
    expect(await themeAttr(page)).toBe('light');
    const light = await background(page);

    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => themeAttr(page), { timeout: 10_000 }).toBe('dark');
    const dark = await background(page);
    expect(dark).not.toBe(light);

    // An explicit choice beats the OS and survives a reload; boot.js applies it before the
    // stylesheet, so the theme attribute is right at DOMContentLoaded, before React renders.
    await theme.selectOption('light');
    await expect.poll(() => background(page), { timeout: 10_000 }).toBe(light);
    await page.goto(`${web.url}/?group=${gid}`, { waitUntil: 'domcontentloaded' });
    expect(await themeAttr(page)).toBe('light');
    await openPreferences(page);
    expect(await theme.inputValue()).toBe('light');
    expect(await background(page)).toBe(light);

    await theme.selectOption('system');
    await expect.poll(() => background(page), { timeout: 10_000 }).toBe(dark);
    expect(await page.evaluate<string | null>("localStorage.getItem('cccc.theme')")).toBeNull();
    await context.close();
  }, 120_000);
});

describe('languages', () => {
  it('switches the visible strings to Chinese and Japanese and remembers the choice', async () => {
    const gid = await groupWithActor('languages');
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    const views = page.locator('nav.view-tabs');
    await views.getByRole('button', { name: 'Settings' }).waitFor({ timeout: 30_000 });
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('en');

    await openPreferences(page);
    await page.getByTestId('language-select').selectOption('zh-CN');
    await views.getByRole('button', { name: '设置' }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: '偏好设置' }).count()).toBe(1);
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('zh-CN');

    await page.reload();
    await views.getByRole('button', { name: '设置' }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: '聊天' }).count()).toBe(1);

    await page.getByRole('button', { name: '偏好设置' }).click();
    await page.getByTestId('language-select').selectOption('ja');
    await views.getByRole('button', { name: '設定' }).waitFor({ timeout: 30_000 });
    await page.reload();
    await views.getByRole('button', { name: 'チャット' }).waitFor({ timeout: 30_000 });
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('ja');

    await page.getByRole('button', { name: '環境設定' }).click();
    await page.getByTestId('language-select').selectOption('en');
    await views.getByRole('button', { name: 'Settings' }).waitFor({ timeout: 30_000 });
    await context.close();
  }, 120_000);

  it('starts in the browser\'s language when nothing is remembered', async () => {
    const gid = await groupWithActor('browser-language');
    const context = await browser.browser.newContext({ locale: 'ja-JP', viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    await page.locator('nav.view-tabs').getByRole('button', { name: '設定' }).waitFor({ timeout: 30_000 });
    await context.close();
  }, 120_000);
});

