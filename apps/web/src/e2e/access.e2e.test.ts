import { describe, expect, it } from 'vitest';
import { createAccessToken } from '../auth/tokens.js';
import type { WebServer } from '../server.js';
import { saveScreenshot, type TestBrowser } from '../testing/browser.js';
import type { DaemonHome } from '../testing/harness.js';
import { useWebStack } from '../testing/web-stack.js';

// A real daemon, the real Web port serving the built app, and Debian's headless Chromium.
let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
useWebStack((stack) => ({ daemon, web, browser } = stack));

describe('the browser app behind access tokens', () => {
  it('serves the app shell and talks to the daemon while the server is open', async () => {
    const { context, page } = await browser.newPage();
    await page.goto(web.url + '/');
    await expect.poll(() => page.locator('.daemon-status').getAttribute('data-state'), { timeout: 30_000 }).toBe('up');
    await context.close();
  });

  it('a token-protected server rejects a browser without the token; ?token= signs in, moves into a cookie and leaves the address bar', async () => {
    const admin = createAccessToken(daemon.home, { admin: true });
    const { context, page } = await browser.newPage();
    await page.goto(web.url + '/');
    await page.getByRole('heading', { name: 'Access token required' }).waitFor({ timeout: 30_000 });
    const denied = await page.evaluate(async () => (await fetch('/api/v1/groups')).status);
    expect(denied).toBe(401);
    await saveScreenshot(page, 'signin-required');

    await page.goto(`${web.url}/?group=g_none&token=${admin.token}`);
    await expect.poll(() => page.locator('.daemon-status').getAttribute('data-state'), { timeout: 30_000 }).toBe('up');
    expect(new URL(page.url()).searchParams.get('token')).toBeNull();
    expect(new URL(page.url()).searchParams.get('group')).toBe('g_none');
    const cookies = await context.cookies();
    const cookie = cookies.find((c) => c.name === 'cccc_access_token');
    expect(cookie?.value).toBe(admin.token);
    expect(cookie?.httpOnly).toBe(true);
    // Script cannot read the token; the API accepts the browser through the cookie.
    expect(await page.evaluate('document.cookie')).not.toContain(admin.token);
    expect(await page.evaluate(async () => (await fetch('/api/v1/groups')).status)).toBe(200);
    await context.close();
  });
});
