import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { installFakeAgentAs } from '@cccc/pty-runtime/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebServer } from '../server.js';
import { saveScreenshot, type TestBrowser } from '../testing/browser.js';
import { until, type DaemonHome } from '../testing/harness.js';
import { useWebStack } from '../testing/web-stack.js';

// Issue 32, onboarding: an empty group shows its three steps (attach a folder, add an agent,
// start) with the runtimes installed on this machine first. `claude` is installed here as the
// fake agent, on the PATH the daemon starts with (this file runs in its own process).
const machine = mkdtempSync(join(tmpdir(), 'cccc-onboarding-'));
installFakeAgentAs(join(machine, 'bin'), 'claude');
process.env.PATH = `${join(machine, 'bin')}${delimiter}${process.env.PATH ?? ''}`;

let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
let client: DaemonClient;
useWebStack((stack) => ({ daemon, web, browser } = stack));
beforeAll(() => {
  client = new DaemonClient({ home: daemon.home });
});
afterAll(() => rmSync(machine, { recursive: true, force: true }));

const steps = (page: Page) => page.getByRole('region', { name: 'Get started' });
const step = (page: Page, id: string) => steps(page).locator(`li[data-step="${id}"]`);

describe('onboarding', () => {
  it('walks a new group through attach a folder, add an agent (installed runtimes first), start', async () => {
    const { group_id: gid } = await client.call('group_create', { title: 'new team' });
    const project = join(machine, 'project');
    mkdirSync(project, { recursive: true });
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    await steps(page).waitFor({ timeout: 30_000 });
    expect(await steps(page).locator('li strong').allTextContents()).toEqual(['Attach a project folder', 'Add an agent', 'Start the group']);
    expect(await step(page, 'attach').getAttribute('data-current')).toBe('true');

    await steps(page).getByLabel('Project folder').fill(project);
    await steps(page).getByRole('button', { name: 'Attach folder' }).click();
    await expect.poll(() => step(page, 'attach').getAttribute('data-done'), { timeout: 30_000 }).toBe('true');
    expect((await client.call('group_show', { group_id: gid })).group.scopes?.map((s) => s.url)).toEqual([project]);

    // The runtimes installed here are one click each; the rest only say they are missing.
    const choices = step(page, 'agent').locator('.onboarding-runtimes > button');
    await expect.poll(() => choices.allTextContents(), { timeout: 30_000 }).toEqual(['Add claude', 'Custom command…']);
    const missing = step(page, 'agent').locator('.runtimes-missing');
    expect(await missing.locator('summary').textContent()).toMatch(/^Not found on this machine \(\d+\)$/);
    await missing.locator('summary').click();
    expect(await missing.textContent()).toContain('codex');
    expect(await missing.textContent()).not.toContain('claude');
    await saveScreenshot(page, 'onboarding-desktop');
    const phone = await browser.newPage({ phone: true });
    await phone.page.goto(`${web.url}/?group=${gid}`);
    await step(phone.page, 'agent').getByRole('button', { name: 'Add claude' }).waitFor({ timeout: 30_000 });
    await saveScreenshot(phone.page, 'onboarding-phone');
    await phone.context.close();

    await step(page, 'agent').getByRole('button', { name: 'Add claude' }).click();
    await expect.poll(() => step(page, 'agent').getAttribute('data-done'), { timeout: 30_000 }).toBe('true');
    const [actor] = (await client.call('actor_list', { group_id: gid })).actors;
    expect(actor).toMatchObject({ runtime: 'claude', running: false });
    await page.locator(`.actor-card[data-actor="${actor!.id}"]`).waitFor({ timeout: 30_000 });

    await step(page, 'start').getByRole('button', { name: 'Start the group' }).click();
    await until(async () => (await client.call('actor_list', { group_id: gid })).actors[0]?.running, 'the claude actor running', 60_000);
    // Set up: the steps give way to the conversation.
    await expect.poll(() => steps(page).count(), { timeout: 30_000 }).toBe(0);
    await page.getByText('No messages yet.').waitFor();
    await context.close();
  }, 180_000);

  it('"Custom command…" opens the add-actor form, on a phone in the Actors pane', async () => {
    const { group_id: gid } = await client.call('group_create', { title: 'custom team' });
    await client.call('attach', { group_id: gid, path: machine });
    const { context, page } = await browser.newPage({ phone: true });
    await page.goto(`${web.url}/?group=${gid}`);
    await step(page, 'agent').getByRole('button', { name: 'Custom command…' }).click();
    const form = page.getByRole('form', { name: 'Add actor' });
    await form.waitFor({ timeout: 10_000 });
    expect(await form.isVisible()).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Panes' }).getByRole('button', { name: 'Actors' }).getAttribute('aria-pressed')).toBe('true');
    await context.close();
  }, 120_000);
});
