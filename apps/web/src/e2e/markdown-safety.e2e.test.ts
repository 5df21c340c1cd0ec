import { DaemonClient } from '@cccc/ipc-protocol/node';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WebServer } from '../server.js';
import { savePhoneScreenshot, saveScreenshot, type TestBrowser } from '../testing/browser.js';
import type { DaemonHome } from '../testing/harness.js';
import { useWebStack } from '../testing/web-stack.js';
import { groupWithScope, webApi } from './fake-claude.js';

// Issue 32, Markdown: every message renders as Markdown, and nothing a message carries runs or
// becomes an element of its own: raw HTML, HTML inside Markdown, javascript:/data: links and
// images, attribute breakouts, in messages and in notices. Real daemon, real Chromium.
let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
let client: DaemonClient;
let gid: string;
useWebStack((stack) => ({ daemon, web, browser } = stack));

beforeAll(async () => {
  client = new DaemonClient({ home: daemon.home });
  gid = await groupWithScope(web.url, daemon.home, 'markdown-e2e');
  await webApi(web.url, 'POST', `/groups/${gid}/actors`, { actor_id: 'lead', runtime: 'custom', command: fakeAgentArgv([]) });
}, 120_000);

/** Each sets window.__pwned (or opens a dialog) if it ever runs. */
const ATTACKS = [
  'raw <img src=x onerror="window.__pwned=1"> and <script>window.__pwned=2</script> and <iframe src="javascript:window.__pwned=3"></iframe>',
  '[click me](javascript:window.__pwned=4) [again](JaVaScRiPt:window.__pwned=5) [spaced](  javascript:window.__pwned=6) [entity](&#106;avascript:window.__pwned=7) <javascript:window.__pwned=8>',
  '[data link](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD05PC9zY3JpcHQ+) ![pixel](javascript:window.__pwned=10) ![tracker](https://tracker.invalid/p.png) ![b64](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9IndpbmRvdy5fX3B3bmVkPTExIi8+)',
  '- item with <svg onload="window.__pwned=12"></svg>\n- **bold <img src=x onerror=window.__pwned=13>**\n\n| a | b |\n|---|---|\n| <img src=x onerror=window.__pwned=14> | <a href="javascript:window.__pwned=15">x</a> |\n\n> quote <style>body{display:none}</style>',
  '[title breakout](https://example.com/x "t\\" onmouseover=\\"window.__pwned=16") and `<img src=x onerror=window.__pwned=17>` and\n\n```html\n<script>window.__pwned=18</script>\n```',
];

const collectDialogs = (page: Page) => {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return dialogs;
};

/** Page-side check (a string: this file compiles without the DOM library). */
const DOM_REPORT = `(() => {
  const scope = [...document.querySelectorAll('.msg-text, .notice')];
  const all = scope.flatMap((s) => [...s.querySelectorAll('*')]);
  return {
    pwned: window.__pwned ?? null,
    forbidden: all.filter((e) => ['IMG', 'SCRIPT', 'IFRAME', 'SVG', 'STYLE', 'OBJECT', 'EMBED', 'FORM', 'INPUT'].includes(e.tagName.toUpperCase())).map((e) => e.outerHTML),
    handlers: all.flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => e.tagName + ' ' + a.name)),
    links: scope.flatMap((s) => [...s.querySelectorAll('a')]).map((a) => ({ href: a.getAttribute('href'), target: a.getAttribute('target'), rel: a.getAttribute('rel'), title: a.getAttribute('title') })),
    bodyShown: getComputedStyle(document.body).display !== 'none',
  };
})()`;

interface DomReport {
  pwned: unknown;
  forbidden: string[];
  handlers: string[];
  links: Array<{ href: string | null; target: string | null; rel: string | null; title: string | null }>;
  bodyShown: boolean;
}

describe('Markdown in messages', () => {
  it('renders what agents write: headings, lists, emphasis, tables, highlighted code, links into a new tab without an opener', async () => {
    const health = `${web.url}/api/v1/health`;
    await client.call('send', {
      group_id: gid,
      by: 'lead',
      to: ['user'],
      message_mode: 'send',
      text: `# Release plan\n\n1. **Freeze** the branch\n2. Run \`npm test\`\n\n| check | state |\n|---|:--:|\n| unit | pass |\n\n\`\`\`python\ndef ship(version: str) -> bool:\n    return True\n\`\`\`\n\nSee [the health page](${health}) or https://example.com/docs`,
    });
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    const msg = page.locator('article.msg', { hasText: 'Release plan' });
    const text = msg.locator('.msg-text');
    await text.locator('h1', { hasText: 'Release plan' }).waitFor({ timeout: 30_000 });
    expect(await text.locator('ol li').count()).toBe(2);
    expect(await text.locator('ol li strong').textContent()).toBe('Freeze');
    expect(await text.locator('table td').allTextContents()).toEqual(['unit', 'pass']);
    expect(await text.locator('pre code .hljs-keyword').first().textContent()).toBe('def');
    expect(await text.textContent()).not.toContain('**');
    // Links open a new tab, with no opener and no referrer.
    const link = text.getByRole('link', { name: 'the health page' });
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await text.getByRole('link', { name: 'https://example.com/docs' }).getAttribute('rel')).toBe('noopener noreferrer');
    const [tab] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await tab.waitForLoadState();
    expect(await tab.evaluate('window.opener')).toBeNull();
    expect(tab.url()).toBe(health);
    await tab.close();
    // The exact text is one click away.
    await msg.getByRole('button', { name: 'Plain text' }).click();
    expect(await msg.locator('.msg-raw').textContent()).toContain('# Release plan');
    await msg.getByRole('button', { name: 'Formatted' }).click();
    await text.locator('h1').waitFor();
    await saveScreenshot(page, 'markdown-desktop');
    await savePhoneScreenshot(browser, `${web.url}/?group=${gid}`, 'markdown', (p) => p.locator('article.msg .msg-text h1').waitFor({ timeout: 30_000 }));
    await context.close();
  }, 120_000);

  it('nothing from a message or a notice runs or becomes an element: raw HTML, HTML in Markdown, javascript: and data: links and images', async () => {
    for (const text of ATTACKS) await client.call('send', { group_id: gid, by: 'lead', to: ['user'], message_mode: 'send', text });
    // The user's own messages go through the same renderer.
    await webApi(web.url, 'POST', `/groups/${gid}/send`, { text: `mine: ${ATTACKS[0]}`, to: ['lead'] });
    await client.call('system_notify', { group_id: gid, by: 'lead', kind: 'info', title: 'Notice <img src=x onerror=window.__pwned=19>', message: '**build** [done](javascript:window.__pwned=20) <svg onload=window.__pwned=21>' });

    const { context, page } = await browser.newPage();
    const dialogs = collectDialogs(page);
    await page.goto(`${web.url}/?group=${gid}`);
    await page.locator('.notice', { hasText: 'build' }).locator('strong', { hasText: 'build' }).waitFor({ timeout: 30_000 });
    await page.locator('article.msg', { hasText: 'mine: raw' }).locator('.msg-text.md').waitFor({ timeout: 30_000 });
    await page.locator('article.msg', { hasText: 'title breakout' }).locator('.msg-text.md').waitFor({ timeout: 30_000 });
    // Hover and click whatever looks clickable in the messages (links that survived are safe).
    for (const a of await page.locator('.msg-text a').all()) await a.hover();
    const report = await page.evaluate<DomReport>(DOM_REPORT);
    expect(report.pwned).toBeNull();
    expect(dialogs).toEqual([]);
    expect(report.forbidden).toEqual([]);
    expect(report.handlers).toEqual([]);
    expect(report.bodyShown).toBe(true);
    for (const l of report.links) {
      expect(l.href, JSON.stringify(l)).toMatch(/^(https?:|mailto:)/);
      expect(l.target).toBe('_blank');
      expect(l.rel).toBe('noopener noreferrer');
    }
    // The markup is shown as text, where a person can read what the agent sent.
    const raw = page.locator('article.msg', { hasText: 'raw <img' }).first();
    expect(await raw.locator('.msg-text').textContent()).toContain('<script>window.__pwned=2</script>');
    expect(await page.locator('article.msg', { hasText: 'click me' }).locator('.msg-text a').count()).toBe(0);
    // A Markdown image is never fetched: it becomes a link (only when its URL is http(s)).
    const images = page.locator('article.msg', { hasText: 'data link' });
    expect(await images.locator('a.md-image-link').allTextContents()).toEqual(['image: tracker']);
    await saveScreenshot(page, 'markdown-injection-desktop');
    await savePhoneScreenshot(browser, `${web.url}/?group=${gid}`, 'markdown-injection', (p) => p.locator('.notice', { hasText: 'build' }).waitFor({ timeout: 30_000 }));
    expect(await page.evaluate('window.__pwned ?? null')).toBeNull();
    await context.close();
  }, 120_000);
});
