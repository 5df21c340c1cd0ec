import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebServer } from '../server.js';
import { saveScreenshot, type TestBrowser } from '../testing/browser.js';
import type { DaemonHome } from '../testing/harness.js';
import { startWebStack, type WebStack } from '../testing/web-stack.js';
import { groupWithScope, installFakeClaude, webApi } from './fake-claude.js';

// The actors panel in a real Chromium against the real Web port and a real daemon: add a
// fake-agent actor through the form (argv editor, private env), start / stop / restart it and
// read its working-state badge, edit and remove it.
let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
let stack: WebStack;
let gid: string;
let claude: string;

beforeAll(async () => {
  stack = await startWebStack();
  ({ daemon, web, browser } = stack);
  gid = await groupWithScope(web.url, daemon.home, 'actors-e2e');
  claude = installFakeClaude(daemon.home);
}, 180_000);

afterAll(async () => {
  await stack?.close();
}, 60_000);

type Actor = { id: string; title: string; runtime: string; command?: string[]; submit?: string; running: boolean; state_source: string; effective_working_state: string };
const listActors = async () => (await webApi<{ actors: Actor[] }>(web.url, 'GET', `/groups/${gid}/actors`)).actors;

describe('actors panel', () => {
  it('adds a fake-agent actor through the form, starts it and shows a working-state badge naming its source', async () => {
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    const panel = page.locator('.actors-panel');
    await panel.getByText('No actors yet.').waitFor({ timeout: 30_000 });

    await panel.getByRole('button', { name: 'Add actor' }).click();
    const form = page.getByRole('form', { name: 'Add actor' });
    await form.getByLabel('Actor id').fill('agent1');
    await form.getByLabel('Title').fill('Fake Claude');
    // The runtime chooser lists the catalog, installed runtimes first; this machine has none of
    // the real CLIs, so the fake agent is a custom command.
    const runtime = form.getByLabel('Runtime');
    await expect.poll(() => runtime.isEnabled(), { timeout: 30_000 }).toBe(true);
    expect(await runtime.locator('optgroup[label="Not found on this machine"] option[value="codex"]').count()).toBe(1);
    await runtime.selectOption('custom');
    await form.getByRole('button', { name: 'Set command' }).click();
    await form.getByLabel('Command executable').fill(claude);
    await form.getByRole('button', { name: 'Add argument' }).click();
    await form.getByLabel('Argument 1', { exact: true }).fill('--title');
    await form.getByRole('button', { name: 'Add argument' }).click();
    await form.getByLabel('Argument 2', { exact: true }).fill('fake claude');
    await form.getByLabel('Submit with').selectOption('enter');
    await form.getByLabel('Private env key').fill('E2E_SECRET');
    await form.getByLabel('Private env value').fill('s3cr3t-value-never-shown');
    await form.getByRole('button', { name: 'Add key' }).click();
    await saveScreenshot(page, 'actors-add-form');
    await form.getByRole('button', { name: 'Add', exact: true }).click();

    const card = panel.locator('.actor-card[data-actor="agent1"]');
    await card.waitFor({ timeout: 30_000 });
    const [created] = await listActors();
    // argv boundaries survive: "fake claude" stays one argument
    expect(created).toMatchObject({ id: 'agent1', title: 'Fake Claude', runtime: 'custom', command: [claude, '--title', 'fake claude'], submit: 'enter' });
    const keys = await webApi<{ keys: string[] }>(web.url, 'GET', `/groups/${gid}/actors/agent1/env_private`);
    expect(keys.keys).toEqual(['E2E_SECRET']);

    if (!created!.running) {
      await expect.poll(() => card.locator('.working-badge').textContent(), { timeout: 30_000 }).toBe('stopped');
      await card.getByRole('button', { name: 'Start' }).click();
    }
    await expect.poll(async () => (await listActors())[0]!.running, { timeout: 30_000 }).toBe(true);
    // Running: the badge reads "<state> · <source>", the same pair the daemon reports.
    const badge = card.locator('.working-badge');
    await expect.poll(async () => badge.textContent(), { timeout: 30_000 }).toMatch(/^(idle|working|waiting|stuck) · (hook|screen|output timing|process|no evidence)$/);
    await expect
      .poll(
        async () => {
          const a = (await listActors())[0]!;
          const shown = await badge.getAttribute('data-source');
          return shown === a.state_source && (await badge.getAttribute('data-state')) === a.effective_working_state;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await saveScreenshot(page, 'actors-panel');

    // The private value never reaches the page, even in the edit form.
    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: 'Edit agent1' });
    await edit.getByText('E2E_SECRET').waitFor({ timeout: 30_000 });
    expect(await page.content()).not.toContain('s3cr3t-value-never-shown');
    expect(await edit.getByLabel('Argument 2', { exact: true }).inputValue()).toBe('fake claude');
    await edit.getByLabel('Title').fill('Fake Claude renamed');
    await edit.getByRole('button', { name: 'Remove private key E2E_SECRET' }).click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await card.getByText('Fake Claude renamed').waitFor({ timeout: 30_000 });
    expect((await webApi<{ keys: string[] }>(web.url, 'GET', `/groups/${gid}/actors/agent1/env_private`)).keys).toEqual([]);
    await context.close();
  }, 180_000);

  it('stops, restarts and removes the actor from its card; the list follows the ledger', async () => {
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    const card = page.locator('.actor-card[data-actor="agent1"]');
    await card.waitFor({ timeout: 30_000 });

    await card.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => card.locator('.working-badge').textContent(), { timeout: 30_000 }).toBe('stopped');
    expect((await listActors())[0]!.running).toBe(false);

    await card.getByRole('button', { name: 'Start' }).click();
    await card.getByRole('button', { name: 'Restart' }).waitFor({ timeout: 30_000 });
    await card.getByRole('button', { name: 'Restart' }).click();
    await expect.poll(async () => (await listActors())[0]!.running, { timeout: 30_000 }).toBe(true);

    // A change made elsewhere (another client) shows up through the ledger stream.
    await webApi(web.url, 'POST', `/groups/${gid}/actors`, { actor_id: 'other', runtime: 'custom', command: [claude] });
    await page.locator('.actor-card[data-actor="other"]').waitFor({ timeout: 30_000 });

    page.once('dialog', (d) => void d.accept());
    await page.locator('.actor-card[data-actor="other"]').getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => page.locator('.actor-card[data-actor="other"]').count(), { timeout: 30_000 }).toBe(0);
    expect((await listActors()).map((a) => a.id)).toEqual(['agent1']);
    await context.close();
  }, 180_000);

  it('shows the daemon error code when a form is refused, and touches nothing', async () => {
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    await page.locator('.actor-card[data-actor="agent1"]').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Add actor' }).click();
    const form = page.getByRole('form', { name: 'Add actor' });
    await expect.poll(() => form.getByLabel('Runtime').isEnabled(), { timeout: 30_000 }).toBe(true);
    await form.getByLabel('Actor id').fill('agent1'); // already taken
    await form.getByLabel('Runtime').selectOption('custom');
    await form.getByRole('button', { name: 'Set command' }).click();
    await form.getByLabel('Command executable').fill(claude);
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => form.getByRole('alert').textContent(), { timeout: 30_000 }).toMatch(/^actor_exists: /);
    expect((await listActors()).map((a) => a.id)).toEqual(['agent1']);
    await context.close();
  }, 180_000);

  it('fits a phone-sized screen: the actors pane has no sideways overflow', async () => {
    const { context, page } = await browser.newPage({ phone: true });
    await page.goto(`${web.url}/?group=${gid}`);
    await page.getByRole('button', { name: 'Actors', exact: true }).click();
    const card = page.locator('.actor-card[data-actor="agent1"]');
    await card.waitFor({ timeout: 30_000 });
    const width = page.viewportSize()!.width;
    for (const name of ['Stop', 'Restart', 'Terminal', 'Edit', 'Remove']) {
      const box = (await card.getByRole('button', { name, exact: true }).boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    }
    await saveScreenshot(page, 'actors-panel-phone');
    await card.getByRole('button', { name: 'Terminal' }).click();
    await expect.poll(() => page.locator('.terminal-state').getAttribute('data-phase'), { timeout: 30_000 }).toBe('open');
    await context.close();
  }, 180_000);
});
