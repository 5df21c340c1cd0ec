import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import type { WebServer } from '../server.js';
import { saveScreenshot, type TestBrowser } from '../testing/browser.js';
import type { DaemonHome } from '../testing/harness.js';
import { useWebStack } from '../testing/web-stack.js';
import { webApi } from './fake-claude.js';

// Settings › Copy Groups and Remote access (issue 31), in real Chromium against a real daemon:
// export downloads a zip without the planted secret, a package is previewed and imported as a
// new stopped group, a non-zip is refused, and the manual provider's admin-token rule shows.
let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
useWebStack((stack) => ({ daemon, web, browser } = stack));

const SECRET = 'sk-web-e2e-4d5e6f7a8b';

it('exports, previews and imports a group copy, refuses a bad package, and shows the remote-access token rule', async () => {
  const { group_id: gid } = (await webApi(web.url, 'POST', '/groups', { title: 'copy-e2e' })) as { group_id: string };
  const client = new DaemonClient({ home: daemon.home });
  await client.call('actor_add', { group_id: gid, actor_id: 'lead', runtime: 'custom', command: ['cat'], env: { OPENAI_API_KEY: SECRET, MODE: 'e2e' } });

  const { context, page } = await browser.newPage();
  await page.goto(`${web.url}/?group=${gid}`);
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'Copy Groups' }).click();
  const panel = page.getByRole('group', { name: 'Copy Groups' });
  await panel.getByRole('button', { name: 'Export this group' }).click();
  const link = panel.locator('a.copy-download');
  await link.waitFor({ timeout: 30_000 });
  expect(await link.getAttribute('download')).toMatch(new RegExp(`^cccc-group-copy-copy-e2e-${gid}-\\d{8}T\\d{6}Z\\.zip$`));
  // A real download of the blob link, as a user's click gets it.
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe(await link.getAttribute('download'));
  const zip = readFileSync((await download.path())!);
  expect(zip.subarray(0, 2).toString()).toBe('PK');
  expect(zip.toString('latin1')).not.toContain(SECRET);

  await panel.getByLabel('Copy package').setInputFiles({ name: 'team.zip', mimeType: 'application/zip', buffer: zip });
  const preview = panel.getByLabel('Import preview');
  await preview.waitFor({ timeout: 30_000 });
  expect(await preview.textContent()).toContain('Group id conflict: yes — a new id will be allocated');
  expect(await panel.getByLabel('Import warnings').textContent()).toMatch(/new group id/);
  await panel.getByLabel('Imported title').fill('copy-e2e imported');
  await saveScreenshot(page, 'copy-groups-preview');
  await panel.getByRole('button', { name: 'Import as a new group' }).click();
  const done = panel.getByRole('status');
  await done.waitFor({ timeout: 30_000 });
  const text = (await done.textContent()) ?? '';
  const newId = /as (g_[0-9a-f]{12})/.exec(text)?.[1];
  expect(newId).toBeDefined();
  expect(newId).not.toBe(gid);
  const shown = (await client.call('group_show', { group_id: newId! })).group as Record<string, any>;
  expect(shown).toMatchObject({ title: 'copy-e2e imported', running: false, state: 'idle' });
  expect(shown.actors[0].env).toEqual({ MODE: 'e2e' });

  const groupsBefore = (await client.call('groups', {})).groups.length;
  await panel.getByLabel('Copy package').setInputFiles({ name: 'bad.zip', mimeType: 'application/zip', buffer: Buffer.from('not a zip at all') });
  await panel.getByRole('alert').waitFor({ timeout: 30_000 });
  expect(await panel.getByRole('alert').textContent()).toMatch(/^invalid_group_copy: /);
  expect((await client.call('groups', {})).groups.length).toBe(groupsBefore);

  await page.getByRole('tab', { name: 'Remote access' }).click();
  const remote = page.getByRole('group', { name: 'Remote access' });
  await remote.getByLabel('Remote provider').selectOption('manual');
  await remote.getByLabel('Web host').fill('0.0.0.0');
  await remote.getByRole('button', { name: 'Save remote access' }).click();
  await remote.getByText('Provider manual').waitFor({ timeout: 30_000 });
  await remote.getByRole('button', { name: 'Start' }).click();
  await remote.getByRole('alert').waitFor({ timeout: 30_000 });
  expect(await remote.getByRole('alert').textContent()).toMatch(/^remote_access_admin_token_required: /);
  expect((await client.call('remote_access_state', {})).remote_access).toMatchObject({ provider: 'manual', enabled: false });
  await saveScreenshot(page, 'remote-access-token-required');
  await context.close();
}, 240_000);
