import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WebServer } from '../server.js';
import { saveScreenshot, type TestBrowser } from '../testing/browser.js';
import type { DaemonHome } from '../testing/harness.js';
import { useWebStack } from '../testing/web-stack.js';

// Branding applied to the page, the live presentation board and the Automation tab, against a
// real daemon, the real Web port and Debian's headless Chromium.
let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
useWebStack((stack) => ({ daemon, web, browser } = stack));

let client: DaemonClient;
let gid = '';
beforeAll(async () => {
  client = new DaemonClient({ home: daemon.home });
  ({ group_id: gid } = await client.call('group_create', { title: 'boards' }));
  for (const actor_id of ['lead', 'p1']) await client.call('actor_add', { group_id: gid, actor_id, runtime: 'custom', command: ['cat'] });
});

async function openGroup(): Promise<Page> {
  const { page } = await browser.newPage();
  await page.goto(`${web.url}/?group=${gid}`);
  await expect.poll(() => page.locator('.daemon-status').getAttribute('data-state'), { timeout: 30_000 }).toBe('up');
  return page;
}

describe('branding, presentation board and automation in the browser', () => {
  it('applies the branding to the title, the top bar and the favicon', async () => {
    const dir = join(daemon.home, 'state', 'web_branding');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'fav.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="red"/></svg>');
    await client.call('branding_update', { patch: { product_name: 'Acme Crew', favicon_asset_path: 'state/web_branding/fav.svg', logo_icon_asset_path: 'state/web_branding/fav.svg' } });
    const page = await openGroup();
    await expect.poll(() => page.title(), { timeout: 30_000 }).toBe('Acme Crew');
    await expect.poll(() => page.locator('.brand').textContent()).toContain('Acme Crew');
    const href = await page.locator('link[rel~="icon"]').getAttribute('href');
    expect(href).toContain('/api/v1/branding/assets/favicon');
    const asset = await page.evaluate(async (url) => {
      const res = await fetch(url!);
      return { status: res.status, type: res.headers.get('content-type'), csp: res.headers.get('content-security-policy') };
    }, href);
    expect(asset).toMatchObject({ status: 200, type: 'image/svg+xml' });
    expect(asset.csp).toContain('sandbox');
    expect(await page.evaluate(async () => (await fetch('/api/v1/branding/assets/other')).status)).toBe(404);
    await page.context().close();
  });

  it('shows the four slots and follows publishes and clears live', async () => {
    const page = await openGroup();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Board' }).click();
    const board = page.getByRole('region', { name: 'Presentation' });
    await expect.poll(() => board.locator('article.board-slot').count(), { timeout: 30_000 }).toBe(4);
    await client.call('presentation_publish', { group_id: gid, by: 'p1', title: 'Test results', content: '# All green\n\n- 42 passed', summary: 'CI run' });
    const slot1 = board.getByRole('article', { name: 'slot-1' });
    await expect.poll(() => slot1.textContent(), { timeout: 30_000 }).toContain('Test results');
    await expect.poll(() => slot1.locator('.md h1').textContent(), { timeout: 30_000 }).toBe('All green');
    expect(await slot1.getAttribute('data-highlight')).toBe('true');
    await client.call('presentation_publish', { group_id: gid, slot: 'slot-2', title: 'Numbers', table: [{ metric: 'p99', value: '12 ms' }] });
    const slot2 = board.getByRole('article', { name: 'slot-2' });
    await expect.poll(() => slot2.locator('td').allTextContents(), { timeout: 30_000 }).toEqual(['p99', '12 ms']);
    await saveScreenshot(page, 'presentation-board');
    await slot1.getByRole('button', { name: 'Clear slot-1' }).click();
    await expect.poll(() => slot1.getAttribute('data-empty'), { timeout: 30_000 }).toBe('true');
    expect((await client.call('presentation_get', { group_id: gid })).presentation.slots[0]!.card).toBeUndefined();
    await page.context().close();
  });

  it('the Automation tab lists rules with their next fire, switches them and adds a reminder', async () => {
    const page = await openGroup();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Automation' }).click();
    const tab = page.getByRole('region', { name: 'Automation' });
    await tab.locator('tr[data-rule="standup"]').waitFor({ timeout: 30_000 });
    await tab.getByLabel('Enable standup').check();
    await expect.poll(async () => (await client.call('group_automation_state', { group_id: gid })).ruleset.rules[0]!['enabled'], { timeout: 30_000 }).toBe(true);
    // The next fire reads in the page's language; the exact instant is the <time> element's datetime.
    await expect.poll(() => tab.locator('tr[data-rule="standup"] td').nth(4).locator('time').getAttribute('datetime'), { timeout: 30_000 }).toMatch(/^\d{4}-\d\d-\d\dT/);

    await tab.getByLabel('Rule id').fill('retro');
    await tab.getByLabel('Schedule kind').selectOption('cron');
    await tab.getByLabel('When').fill('0 16 * * 5');
    await tab.getByLabel('Time zone').fill('Europe/Berlin');
    await tab.getByLabel('Recipients').fill('@all');
    await tab.getByLabel('Message').fill('Retro time for {{group_title}}');
    await tab.getByRole('button', { name: 'Add reminder' }).click();
    await tab.locator('tr[data-rule="retro"]').waitFor({ timeout: 30_000 });
    const rule = (await client.call('group_automation_state', { group_id: gid })).ruleset.rules.find((r) => r['id'] === 'retro');
    expect(rule).toMatchObject({ to: ['@all'], trigger: { kind: 'cron', cron: '0 16 * * 5', timezone: 'Europe/Berlin' }, action: { kind: 'notify', message: 'Retro time for {{group_title}}' } });

    // A bad cron comes back as the daemon's code, and nothing is added.
    await tab.getByLabel('Rule id').fill('broken');
    await tab.getByLabel('Schedule kind').selectOption('cron');
    await tab.getByLabel('When').fill('0 16 * *');
    await tab.getByLabel('Message').fill('x');
    await tab.getByRole('button', { name: 'Add reminder' }).click();
    await expect.poll(() => tab.getByRole('status').textContent(), { timeout: 30_000 }).toContain('invalid_rule');
    await saveScreenshot(page, 'automation');
    await tab.getByRole('button', { name: 'Delete retro' }).click();
    await expect.poll(() => tab.locator('tr[data-rule="retro"]').count(), { timeout: 30_000 }).toBe(0);
    await page.context().close();
  });
});
