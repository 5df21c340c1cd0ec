import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { WebServer } from '../server.js';
import { saveScreenshot, type TestBrowser } from '../testing/browser.js';
import type { DaemonHome } from '../testing/harness.js';
import { useWebStack } from '../testing/web-stack.js';
import { webApi } from './fake-claude.js';

// The IM panel in Settings (issue 30): configure a Telegram bot (the token goes in and never
// comes back), then bind and reject pending one-time keys and revoke an authorized chat.
let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
useWebStack((stack) => ({ daemon, web, browser } = stack));

const TOKEN = '4711:web-panel-secret-token';

it('configures the bridge, binds and rejects pending keys, and revokes a chat', async () => {
  const { group_id: gid } = (await webApi(web.url, 'POST', '/groups', { title: 'im-e2e' })) as { group_id: string };
  // Two chats asked the bot for access (the file shape the bridge and the reference write).
  const now = Date.now() / 1000;
  const pendingFile = join(daemon.home, 'groups', gid, 'state', 'im_pending_keys.json');
  writeFileSync(
    pendingFile,
    JSON.stringify({
      keyAlpha01: { chat_id: '-100777', thread_id: 5, platform: 'telegram', created_at: now, expires_at: now + 600 },
      keyBeta002: { chat_id: '31337', thread_id: 0, platform: 'telegram', created_at: now - 1, expires_at: now + 599 },
    }),
  );

  const { context, page } = await browser.newPage();
  await page.goto(`${web.url}/?group=${gid}`);
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'IM' }).click();
  const panel = page.getByRole('group', { name: 'IM bridge' });
  await panel.getByText('Not configured.').waitFor({ timeout: 30_000 });

  await panel.getByLabel('IM platform').selectOption('telegram');
  await panel.getByLabel('Bot token').fill(TOKEN);
  await panel.getByRole('button', { name: 'Save IM settings' }).click();
  await panel.getByText('telegram: disabled, bot token stored').waitFor({ timeout: 30_000 });
  await panel.getByRole('button', { name: 'Enable bridge' }).click();
  await panel.getByText('telegram: enabled, bot token stored').waitFor({ timeout: 30_000 });
  expect(await panel.getByLabel('Bot token').inputValue()).toBe('');
  expect(await page.content()).not.toContain('web-panel-secret');
  expect(readFileSync(join(daemon.home, 'groups', gid, 'group.yaml'), 'utf8')).not.toContain('web-panel-secret');

  const alpha = panel.locator('.im-pending li[data-key="keyAlpha01"]');
  await alpha.waitFor({ timeout: 30_000 });
  expect(await alpha.textContent()).toContain('-100777 · thread 5');
  await alpha.getByRole('button', { name: 'Bind' }).click();
  await panel.locator('.im-authorized li', { hasText: '-100777 · thread 5' }).waitFor({ timeout: 30_000 });
  await panel.locator('.im-pending li[data-key="keyBeta002"]').getByRole('button', { name: 'Reject' }).click();
  await panel.getByText('No chat is waiting.', { exact: false }).waitFor({ timeout: 30_000 });
  await saveScreenshot(page, 'im-panel');

  // A spent key is refused with the spec's code.
  await panel.getByLabel('Bind key').fill('keyAlpha01');
  await panel.getByRole('button', { name: 'Bind key' }).click();
  await panel.getByRole('alert').getByText(/invalid_key/).waitFor({ timeout: 30_000 });

  await panel.locator('.im-authorized li', { hasText: '-100777' }).getByRole('button', { name: 'Revoke' }).click();
  await panel.getByText('No authorized chats.').waitFor({ timeout: 30_000 });
  expect(JSON.parse(readFileSync(join(daemon.home, 'groups', gid, 'state', 'im_subscribers.json'), 'utf8'))).toEqual({});
  await context.close();
}, 180_000);
