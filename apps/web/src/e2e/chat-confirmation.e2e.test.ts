import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { installFakeAgentAs } from '@cccc/pty-runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebServer, type WebServer } from '../server.js';
import { launchTestBrowser, saveScreenshot, type TestBrowser } from '../testing/browser.js';
import { startDaemonHome, until, type DaemonHome } from '../testing/harness.js';
import { snapshotApp } from '../testing/app-snapshot.js';

// "Typed but not submitted" in the timeline: a fake agent installed as `claude` gets the
// daemon's injected hooks but thinks longer than the daemon's confirmation window, so the
// accepted delivery is recorded unconfirmed and the row says so, live.
let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
let appDir: string;
let client: DaemonClient;
let dir: string;
const saved = process.env.CCCC_DELIVERY_CONFIRM_MS;

beforeAll(async () => {
  // The daemon inherits this environment: a short window so the slow agent misses it.
  process.env.CCCC_DELIVERY_CONFIRM_MS = '3000';
  appDir = await snapshotApp();
  daemon = await startDaemonHome();
  if (saved === undefined) delete process.env.CCCC_DELIVERY_CONFIRM_MS;
  else process.env.CCCC_DELIVERY_CONFIRM_MS = saved;
  web = await startWebServer({ home: daemon.home, port: 0, appDir });
  browser = await launchTestBrowser();
  client = new DaemonClient({ home: daemon.home });
  dir = mkdtempSync(join(tmpdir(), 'cccc-web-confirm-'));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await web?.close();
  await daemon?.stop();
  if (appDir) rmSync(appDir, { recursive: true, force: true });
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('delivery confirmation in the timeline', () => {
  it('shows "typed but not submitted" for an accepted delivery the runtime never confirmed', async () => {
    const { group_id: gid } = await client.call('group_create', { title: 'confirmations' });
    const scope = join(dir, 'scope');
    mkdirSync(scope, { recursive: true });
    await client.call('attach', { path: scope, group_id: gid });
    const shim = installFakeAgentAs(join(dir, 'bin'), 'claude');
    await client.call('actor_add', { group_id: gid, actor_id: 'slow', runtime: 'custom', command: [shim], env: { FAKE_AGENT_THINKING_MS: '15000' } });
    await client.call('group_start', { group_id: gid });
    await until(async () => (await client.call('actor_list', { group_id: gid })).actors.filter((a) => a.running).length === 1, 'the agent running', 60_000);

    const { page, context } = await browser.newPage();
    try {
      await page.goto(`${web.url}/?group=${gid}`);
      const box = page.getByRole('textbox', { name: 'Message', exact: true });
      await box.fill('@slow please confirm');
      await box.press('Enter');
      const msg = page.locator('article.msg', { hasText: 'please confirm' });
      await msg.waitFor({ timeout: 30_000 });
      await expect.poll(() => msg.locator('li[data-actor="slow"]').getAttribute('data-confirmation'), { timeout: 60_000 }).toBe('unconfirmed');
      expect(await msg.locator('li[data-actor="slow"]').textContent()).toContain('typed but not submitted');
      expect(await msg.locator('li[data-actor="slow"]').getAttribute('data-delivery')).toBe('accepted');
      await saveScreenshot(page, 'chat-confirmation');
    } finally {
      await context.close();
    }
  }, 240_000);
});
