import { DaemonClient } from '@cccc/ipc-protocol/node';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WebServer } from '../server.js';
import { saveScreenshot, type TestBrowser } from '../testing/browser.js';
import { until, type DaemonHome } from '../testing/harness.js';
import { useWebStack } from '../testing/web-stack.js';
import { groupWithScope, webApi } from './fake-claude.js';

// Issue 32, actor cards and the terminal tab: ^C / Esc / Enter keys, why an actor is not running
// (its own exit, or a start that failed, with its last output) and Relaunch; Connected / Exited
// in the terminal tab; a phone watches view-only and never resizes a terminal it does not control.
let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
let client: DaemonClient;
let gid: string;
useWebStack((stack) => ({ daemon, web, browser } = stack));

beforeAll(async () => {
  client = new DaemonClient({ home: daemon.home });
  gid = await groupWithScope(web.url, daemon.home, 'cards-e2e');
  await webApi(web.url, 'POST', `/groups/${gid}/actors`, { actor_id: 'agent1', runtime: 'custom', command: fakeAgentArgv(['--title', 'card-agent', '--no-alt-screen']) });
  await webApi(web.url, 'POST', `/groups/${gid}/actors/agent1/start`);
}, 120_000);

const card = (page: Page, id = 'agent1') => page.locator(`.actor-card[data-actor="${id}"]`);
const state = (page: Page) => page.locator('.terminal-state');
const screen = (page: Page) => page.locator('.terminal-host .xterm-rows').innerText();
const running = async (id: string) => (await client.call('actor_list', { group_id: gid })).actors.find((a) => a.id === id)?.running;

/** The PTY's size as a fresh read-only attach reports it. */
async function ptySize(actorId = 'agent1'): Promise<string> {
  const viewer = await client.openTermAttach({ group_id: gid, actor_id: actorId, by: 'user', mode: 'viewer', bootstrap: 'snapshot_v1' });
  viewer.close();
  return `${viewer.handshake.initial_output?.cols}x${viewer.handshake.initial_output?.rows}`;
}

describe('actor cards and the terminal tab', () => {
  it('^C on the card ends the agent: the card says it exited with code 130, the tab says Exited; Relaunch brings both back', async () => {
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}&actor=agent1`);
    await expect.poll(() => state(page).getAttribute('data-connection'), { timeout: 30_000 }).toBe('connected');
    expect(await state(page).textContent()).toMatch(/^Connected · control · \d+×\d+$/);
    await expect.poll(() => screen(page), { timeout: 30_000 }).toContain('fake-agent>');

    // Enter from the card reaches the agent through this tab (it holds the writer role).
    await card(page).getByRole('button', { name: 'Send Enter to agent1' }).click();
    await expect.poll(() => screen(page), { timeout: 30_000 }).toContain('[fake-agent] received: ');
    // ^C: the fake agent exits 130, as Claude Code does on a Ctrl-C at an empty prompt.
    await card(page).getByRole('button', { name: 'Send Ctrl-C to agent1' }).click();
    const exited = card(page).locator('.start-problem[data-kind="exit"]');
    await exited.waitFor({ timeout: 30_000 });
    expect(await exited.locator('p').textContent()).toMatch(/^Not running: exited with code 130 by itself at /);
    await expect.poll(() => state(page).textContent(), { timeout: 30_000 }).toBe('Exited (code 130)');
    expect(await state(page).getAttribute('data-connection')).toBe('exited');
    await saveScreenshot(page, 'actor-exited-desktop');

    await exited.getByRole('button', { name: 'Relaunch' }).click();
    await until(() => running('agent1'), 'agent1 running again', 60_000);
    await expect.poll(() => state(page).getAttribute('data-connection'), { timeout: 30_000 }).toBe('connected');
    await expect.poll(() => screen(page), { timeout: 30_000 }).toContain('card-agent ready');
    expect(await card(page).locator('.start-problem').count()).toBe(0);
    await context.close();
  }, 180_000);

  it('a start that fails says why with the last output lines, and Relaunch tries again', async () => {
    await webApi(web.url, 'POST', `/groups/${gid}/actors`, { actor_id: 'broken', runtime: 'custom', command: ['sh', '-c', 'echo "config: API_KEY is missing"; exit 3'] }).catch(() => undefined);
    await expect(webApi(web.url, 'POST', `/groups/${gid}/actors/broken/start`)).rejects.toThrow(/runtime_start_failed/);
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    const problem = card(page, 'broken').locator('.start-problem[data-kind="failure"]');
    await problem.waitFor({ timeout: 30_000 });
    expect(await problem.locator('p').textContent()).toContain('exited with code 3');
    expect(await problem.getByLabel('last output of broken').textContent()).toBe('config: API_KEY is missing');
    await problem.getByRole('button', { name: 'Relaunch' }).click();
    await page.getByRole('alert').filter({ hasText: 'broken start: runtime_start_failed' }).waitFor({ timeout: 30_000 });
    await problem.waitFor();
    await saveScreenshot(page, 'actor-start-failure-desktop');
    const phone = await browser.newPage({ phone: true });
    await phone.page.goto(`${web.url}/?group=${gid}`);
    await phone.page.getByRole('navigation', { name: 'Panes' }).getByRole('button', { name: 'Actors' }).click();
    await card(phone.page, 'broken').locator('.start-problem').waitFor({ timeout: 30_000 });
    await saveScreenshot(phone.page, 'actor-cards-phone');
    await phone.context.close();
    await webApi(web.url, 'DELETE', `/groups/${gid}/actors/broken`);
    await context.close();
  }, 120_000);

  it('a phone watches view-only and leaves the PTY alone until it takes control', async () => {
    const desk = await browser.newPage();
    await desk.page.goto(`${web.url}/?group=${gid}&actor=agent1`);
    await expect.poll(() => state(desk.page).getAttribute('data-writable'), { timeout: 30_000 }).toBe('true');
    const deskSize: string = await until(async () => /(\d+)×(\d+)/.exec((await state(desk.page).textContent()) ?? '')?.slice(1).join('x') ?? '', 'desktop size');
    await expect.poll(() => ptySize(), { timeout: 30_000 }).toBe(deskSize);

    const { context, page } = await browser.newPage({ phone: true });
    await page.goto(`${web.url}/?group=${gid}&actor=agent1`);
    await expect.poll(() => state(page).getAttribute('data-mode'), { timeout: 30_000 }).toBe('viewer');
    await expect.poll(() => state(page).textContent(), { timeout: 30_000 }).toContain('view only');
    expect(await state(page).getAttribute('data-writable')).toBe('false');
    await page.getByText('View only on this screen').waitFor();
    // Showing the terminal at the phone's size would have resized it for everyone: it did not.
    expect(await ptySize()).toBe(deskSize);
    expect(await state(page).textContent()).toContain(deskSize.replace('x', '×'));
    expect(await state(desk.page).getAttribute('data-writable')).toBe('true');
    // Typing here sends nothing.
    await page.locator('.terminal-host').click();
    await page.keyboard.type('from the phone');
    await expect.poll(() => page.locator('.terminal-message').textContent(), { timeout: 10_000 }).toContain('view only: what you type is not sent');
    await saveScreenshot(page, 'terminal-viewer-phone');

    // Taking control is a choice: then the phone is the writer and the PTY follows its size.
    await page.getByRole('button', { name: 'Take control' }).click();
    await expect.poll(() => state(page).getAttribute('data-writable'), { timeout: 30_000 }).toBe('true');
    await expect.poll(() => ptySize(), { timeout: 30_000 }).not.toBe(deskSize);
    await expect.poll(() => state(desk.page).getAttribute('data-writable'), { timeout: 30_000 }).toBe('false');
    await saveScreenshot(desk.page, 'terminal-read-only-desktop');
    await context.close();
    await desk.context.close();
  }, 180_000);
});
