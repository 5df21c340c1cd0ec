import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebServer } from '../server.js';
import { saveScreenshot, type TestBrowser } from '../testing/browser.js';
import type { DaemonHome } from '../testing/harness.js';
import { startWebStack, type WebStack } from '../testing/web-stack.js';
import { groupWithScope, webApi } from './fake-claude.js';

// The terminal tab in a real Chromium: xterm.js on the Web port's terminal WebSocket, bridged to
// the daemon's term_attach of a fake agent running in a real PTY.
let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
let stack: WebStack;
let gid: string;

beforeAll(async () => {
  stack = await startWebStack();
  ({ daemon, web, browser } = stack);
  gid = await groupWithScope(web.url, daemon.home, 'terminal-e2e');
  // Unhooked (not named `claude`): every Enter is answered at once. Inline (no alternate
  // screen) like Claude Code, so what scrolls off stays in xterm's scrollback.
  await webApi(web.url, 'POST', `/groups/${gid}/actors`, {
    actor_id: 'agent1',
    runtime: 'custom',
    command: fakeAgentArgv(['--title', 'fake-term', '--no-alt-screen']),
  });
  await webApi(web.url, 'POST', `/groups/${gid}/actors/agent1/start`);
}, 180_000);

afterAll(async () => {
  await stack?.close();
}, 60_000);

/** What xterm currently shows (the DOM renderer's visible rows). */
const screen = (page: Page) => page.locator('.terminal-host .xterm-rows').innerText();
const state = (page: Page) => page.locator('.terminal-state');
const size = async (page: Page) => /(\d+)×(\d+)/.exec((await state(page).textContent()) ?? '')?.slice(1).join('x');

describe('terminal tab', () => {
  it('opens from the actors panel, restores the screen, shows output and sends typed input (control mode)', async () => {
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    const card = page.locator('.actor-card[data-actor="agent1"]');
    await card.getByRole('button', { name: 'Terminal' }).click({ timeout: 30_000 });
    expect(new URL(page.url()).searchParams.get('actor')).toBe('agent1');
    await expect.poll(() => state(page).getAttribute('data-writable'), { timeout: 30_000 }).toBe('true');
    // snapshot_v1: the agent's banner was written before we attached and is restored.
    await expect.poll(() => screen(page), { timeout: 30_000 }).toContain('fake-term ready');
    await expect.poll(() => screen(page), { timeout: 30_000 }).toContain('fake-agent>');

    await page.locator('.terminal-host').click();
    await page.keyboard.type('hello from the browser');
    await page.keyboard.press('Enter');
    await expect.poll(() => screen(page), { timeout: 30_000 }).toContain('[fake-agent] received: hello from the browser');
    await saveScreenshot(page, 'terminal-desktop');
    await context.close();
  }, 180_000);

  it('ack_v1: an output burst far beyond the flow-control window arrives whole (the browser acknowledges what it parsed)', async () => {
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}&actor=agent1`);
    await expect.poll(() => state(page).getAttribute('data-writable'), { timeout: 30_000 }).toBe('true');
    await expect.poll(() => screen(page), { timeout: 30_000 }).toContain('fake-agent>');
    // A bracketed paste the agent does not echo; on Enter it prints it back in one go:
    // ~600 KiB of output against the bridge's 256 KiB window, so it only completes with acks.
    const big = 'y'.repeat(600 * 1024) + ' END-OF-BURST';
    await page.locator('.terminal-host').click();
    // (browser-side code as a string: this file is type-checked without the DOM library)
    await page.evaluate(`(() => {
      const data = new DataTransfer();
      data.setData('text/plain', ${JSON.stringify(big)});
      document.querySelector('.terminal-host textarea').dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    })()`);
    await page.keyboard.press('Enter');
    await expect.poll(() => screen(page), { timeout: 60_000 }).toMatch(/END-OF-BURST\s*fake-agent>/);
    await context.close();
  }, 180_000);

  it('a second browser is read-only until it takes control; the first then turns read-only; the PTY follows the writer size', async () => {
    const first = await browser.newPage();
    await first.page.goto(`${web.url}/?group=${gid}&actor=agent1`);
    await expect.poll(() => state(first.page).getAttribute('data-writable'), { timeout: 30_000 }).toBe('true');
    await expect.poll(() => size(first.page), { timeout: 30_000 }).toMatch(/^\d+x\d+$/);
    const writerSize = await size(first.page);

    const second = await browser.newPage();
    await second.page.setViewportSize({ width: 900, height: 600 });
    await second.page.goto(`${web.url}/?group=${gid}&actor=agent1`);
    await expect.poll(() => state(second.page).textContent(), { timeout: 30_000 }).toContain('read-only (another writer)');
    // A read-only client keeps the PTY's size (from the snapshot), it does not resize it.
    await expect.poll(() => size(second.page), { timeout: 30_000 }).toBe(writerSize);
    await second.page.locator('.terminal-host').click();
    await second.page.keyboard.type('ignored');
    await expect.poll(() => second.page.locator('.terminal-message').textContent(), { timeout: 10_000 }).toContain('read-only');

    await second.page.getByRole('button', { name: 'Take control' }).click();
    await expect.poll(() => state(second.page).getAttribute('data-writable'), { timeout: 30_000 }).toBe('true');
    // opcode 6 tells the first browser it lost the writer role.
    await expect.poll(() => state(first.page).getAttribute('data-writable'), { timeout: 30_000 }).toBe('false');
    const secondSize = await size(second.page);
    expect(secondSize).not.toBe(writerSize);

    // The PTY now has the new writer's size: a fresh read-only attach reports it.
    const third = await browser.newPage();
    await third.page.goto(`${web.url}/?group=${gid}&actor=agent1`);
    await expect.poll(() => size(third.page), { timeout: 30_000 }).toBe(secondSize);

    await second.page.locator('.terminal-host').click();
    await second.page.keyboard.type('from the new writer');
    await second.page.keyboard.press('Enter');
    await expect.poll(() => screen(second.page), { timeout: 30_000 }).toContain('received: from the new writer');
    await expect.poll(() => screen(first.page), { timeout: 30_000 }).toContain('received: from the new writer');

    await second.page.getByRole('button', { name: 'View only' }).click();
    await expect.poll(() => state(second.page).getAttribute('data-mode'), { timeout: 30_000 }).toBe('viewer');
    for (const p of [first, second, third]) await p.context.close();
  }, 180_000);

  it('follows a restart: the tab reattaches to the new session by itself', async () => {
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}&actor=agent1`);
    await expect.poll(() => state(page).textContent(), { timeout: 30_000 }).toMatch(/control|read-only/);
    if ((await state(page).getAttribute('data-writable')) !== 'true') await page.getByRole('button', { name: 'Take control' }).click();
    await expect.poll(() => state(page).getAttribute('data-writable'), { timeout: 30_000 }).toBe('true');
    await page.locator('.terminal-host').click();
    await page.keyboard.type('before-restart');
    await page.keyboard.press('Enter');
    await expect.poll(() => screen(page), { timeout: 30_000 }).toContain('received: before-restart');

    await webApi(web.url, 'POST', `/groups/${gid}/actors/agent1/restart`);
    // The new session's screen replaces the old one (no stale output), and it is writable.
    await expect.poll(() => screen(page), { timeout: 60_000 }).not.toContain('before-restart');
    await expect.poll(() => screen(page), { timeout: 30_000 }).toContain('fake-term ready');
    await expect.poll(() => state(page).getAttribute('data-writable'), { timeout: 30_000 }).toBe('true');
    await page.locator('.terminal-host').click();
    await page.keyboard.type('after-restart');
    await page.keyboard.press('Enter');
    await expect.poll(() => screen(page), { timeout: 30_000 }).toContain('received: after-restart');
    await context.close();
  }, 180_000);

  it('a stopped actor cannot be attached: the tab says so instead of showing an empty screen', async () => {
    // (adding to an active group starts the actor; stop it)
    await webApi(web.url, 'POST', `/groups/${gid}/actors`, { actor_id: 'idle1', runtime: 'custom', command: fakeAgentArgv() });
    await webApi(web.url, 'POST', `/groups/${gid}/actors/idle1/stop`);
    const actors = (await webApi<{ actors: { id: string; running: boolean }[] }>(web.url, 'GET', `/groups/${gid}/actors`)).actors;
    expect(actors.find((a) => a.id === 'idle1')?.running).toBe(false);
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}&actor=idle1`);
    await expect.poll(() => page.locator('.terminal-message').textContent(), { timeout: 30_000 }).toContain('cannot attach');
    expect(await state(page).getAttribute('data-phase')).toBe('closed');
    await context.close();
  }, 180_000);

  it('is readable and scrollable on a phone-sized screen', async () => {
    const { context, page } = await browser.newPage({ phone: true });
    await page.goto(`${web.url}/?group=${gid}&actor=agent1`);
    await expect.poll(() => state(page).textContent(), { timeout: 30_000 }).toMatch(/control|read-only/);
    if ((await state(page).getAttribute('data-writable')) !== 'true') await page.getByRole('button', { name: 'Take control' }).click();
    await expect.poll(() => state(page).getAttribute('data-writable'), { timeout: 30_000 }).toBe('true');

    // Fitted to the phone: the whole terminal width is on screen, in a legible font.
    const viewport = page.viewportSize()!;
    await expect.poll(async () => (await page.locator('.terminal-host .xterm-screen').boundingBox())!.width, { timeout: 30_000 }).toBeLessThanOrEqual(viewport.width);
    const fontPx = Number(await page.evaluate(`parseFloat(getComputedStyle(document.querySelector('.terminal-host .xterm-rows')).fontSize)`));
    expect(fontPx).toBeGreaterThanOrEqual(12);
    const [cols] = (await size(page))!.split('x').map(Number);
    expect(cols).toBeGreaterThanOrEqual(30);

    // More output than fits: scroll back to an early line and forward again.
    await page.locator('.terminal-host').click();
    for (let i = 1; i <= 40; i++) {
      await page.keyboard.type(`line-${i}`);
      await page.keyboard.press('Enter');
    }
    await expect.poll(() => screen(page), { timeout: 30_000 }).toContain('received: line-40');
    await saveScreenshot(page, 'terminal-phone');
    expect(await screen(page)).not.toContain('received: line-1\n');
    let pages = 0;
    while (!/received: line-1\n/.test(await screen(page)) && pages < 10) {
      await page.getByRole('button', { name: 'Scroll up' }).click();
      pages++;
      await page.waitForFunction(() => true);
    }
    expect(await screen(page)).toMatch(/received: line-1\n/);
    expect(pages).toBeGreaterThan(0);
    for (let i = 0; i < pages; i++) await page.getByRole('button', { name: 'Scroll down' }).click();
    await expect.poll(() => screen(page), { timeout: 10_000 }).toContain('received: line-40');
    await context.close();
  }, 180_000);
});
