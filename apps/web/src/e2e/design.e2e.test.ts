import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { WebServer } from '../server.js';
import type { TestBrowser } from '../testing/browser.js';
import type { DaemonHome } from '../testing/harness.js';
import { useWebStack } from '../testing/web-stack.js';

// The Web as a product (issue 33) in a real Chromium against a real daemon: themes, languages,
// the settings tabs, an axe-core accessibility pass and screenshots at desktop and phone size.

let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
useWebStack((s) => ({ daemon, web, browser } = s));

// Evaluated as strings: this file is typed for Node, without the DOM library.
const background = (page: Page) => page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor');
const themeAttr = (page: Page) => page.evaluate<string | undefined>('document.documentElement.dataset.theme');

/** Theme and language live in the Preferences dialog off the top bar. */
async function openPreferences(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Preferences' }).click();
  await page.getByRole('dialog', { name: 'Preferences' }).waitFor({ timeout: 30_000 });
}

async function groupWithActor(title: string): Promise<string> {
  const client = new DaemonClient({ home: daemon.home });
  const { group_id: gid } = await client.call('group_create', { title, by: 'user' });
  await client.call('actor_add', { group_id: gid, actor_id: 'lead', runtime: 'custom', command: ['cat'], by: 'user' });
  return gid;
}

describe('themes', () => {
  it('follows the OS by default, switches, and remembers the choice across a reload with no flash', async () => {
    const gid = await groupWithActor('themes');
    const { context, page } = await browser.newPage();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${web.url}/?group=${gid}`);
    await openPreferences(page);
    const theme = page.getByLabel('Theme');
    expect(await themeAttr(page)).toBe('light');
    const light = await background(page);

    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => themeAttr(page), { timeout: 10_000 }).toBe('dark');
    const dark = await background(page);
    expect(dark).not.toBe(light);

    // An explicit choice beats the OS and survives a reload; boot.js applies it before the
    // stylesheet, so the theme attribute is right at DOMContentLoaded, before React renders.
    await theme.selectOption('light');
    await expect.poll(() => background(page), { timeout: 10_000 }).toBe(light);
    await page.goto(`${web.url}/?group=${gid}`, { waitUntil: 'domcontentloaded' });
    expect(await themeAttr(page)).toBe('light');
    await openPreferences(page);
    expect(await theme.inputValue()).toBe('light');
    expect(await background(page)).toBe(light);

    await theme.selectOption('system');
    await expect.poll(() => background(page), { timeout: 10_000 }).toBe(dark);
    expect(await page.evaluate<string | null>("localStorage.getItem('cccc.theme')")).toBeNull();
    await context.close();
  }, 120_000);
});

describe('languages', () => {
  it('switches the visible strings to Chinese and Japanese and remembers the choice', async () => {
    const gid = await groupWithActor('languages');
    const { context, page } = await browser.browser.newContext({ viewport: { width: 1280, height: 800 } }).then(async (c) => ({ context: c, page: await c.newPage() }));
    await page.goto(`${web.url}/?group=${gid}`);
    const views = page.locator('nav.view-tabs');
    await views.getByRole('button', { name: 'Settings' }).waitFor({ timeout: 30_000 });
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('en');

    await openPreferences(page);
    await page.getByTestId('language-select').selectOption('zh-CN');
    await views.getByRole('button', { name: '设置' }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: '偏好设置' }).count()).toBe(1);
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('zh-CN');

    await page.reload();
    await views.getByRole('button', { name: '设置' }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: '聊天' }).count()).toBe(1);
    await shot(page, 'desktop-chat-zh');

    await page.getByRole('button', { name: '偏好设置' }).click();
    await page.getByTestId('language-select').selectOption('ja');
    await views.getByRole('button', { name: '設定' }).waitFor({ timeout: 30_000 });
    await page.reload();
    await views.getByRole('button', { name: 'チャット' }).waitFor({ timeout: 30_000 });
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('ja');
    await views.getByRole('button', { name: '設定', exact: true }).click();
    await page.getByRole('tab', { name: 'ガイダンス' }).waitFor({ timeout: 30_000 });
    await shot(page, 'desktop-settings-ja');

    await page.getByRole('button', { name: '環境設定' }).click();
    await page.getByTestId('language-select').selectOption('en');
    await views.getByRole('button', { name: 'Settings' }).waitFor({ timeout: 30_000 });
    await context.close();
  }, 120_000);

  it('starts in the browser\'s language when nothing is remembered', async () => {
    const gid = await groupWithActor('browser-language');
    const context = await browser.browser.newContext({ locale: 'ja-JP', viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    await page.locator('nav.view-tabs').getByRole('button', { name: '設定' }).waitFor({ timeout: 30_000 });
    await context.close();
  }, 120_000);
});


/**
 * Words a translated page may still show: product and protocol names, the runtimes' own names,
 * and the data this test creates (actor id, runtime, command, slot ids). Anything else of three
 * or more Latin letters anywhere on the page (top bar, group list, the area, the team pane) is an
 * English leftover.
 */
// 'cron' and 'RFC' name a tool and a standard; 'standup' is the built-in rule's snippet id; the IM
// platforms are product names.
const PROPER_NAMES = new Set(['CCCC', 'MCP', 'IM', 'Web', 'URL', 'PATH', 'CLI', 'argv', 'lead', 'custom', 'cat', 'cccc_presentation', 'profile_in_use', 'Enter', 'slot-', 'CCCC_HELP', 'Tailscale', 'cron', 'RFC', 'standup', 'Telegram', 'Slack', 'Discord', 'Feishu', 'DingTalk', 'WeCom']);

async function englishLeftovers(page: Page, extra: ReadonlySet<string>): Promise<string[]> {
  // Content is not UI: the daemon's help document, its own texts and code/pre blocks are left out,
  // so are the titles in the group list (other tests' groups are named in English), and recipient
  // tokens (@all, @foreman, @peers) are addresses, not words.
  const text = await page.evaluate<string>(
    "(() => { const m = document.body.cloneNode(true); m.querySelectorAll('pre, code, textarea, [data-daemon-text], .group-title').forEach((e) => e.remove()); document.body.appendChild(m); const t = m.innerText; m.remove(); return t; })()",
  );
  const words = text.replace(/@[\w-]+/g, ' ').match(/[A-Za-z][A-Za-z_-]{2,}/g) ?? [];
  return [...new Set(words.filter((w) => !PROPER_NAMES.has(w) && !extra.has(w) && !extra.has(w.toLowerCase())))];
}

/**
 * Every area, visited by position (their labels are in the language under test): Chat (with its
 * onboarding), Inbox, Board, Automation, Memory, Voice, Space, and every Settings tab in
 * registry order (Messaging, Delivery, Transcript, Guidance, Automation, IM, Capabilities,
 * Profiles, Web Access, Remote access, Copy Groups, Space, Voice).
 */
const VIEW_INDEX = { chat: 0, inbox: 1, board: 2, automation: 3, memory: 4, voice: 5, space: 6, settings: 7 } as const;
const SETTINGS_TAB_INDEX = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;
/** What shows once an area's data has loaded, so the check reads the loaded area, not "Loading…". */
const READY: Readonly<Record<string, string>> = {
  automation: 'tr[data-rule]',
  voice: '.voice-meeting',
  space: '.space-bindings tbody tr',
  'settings tab 4': 'tr[data-rule]',
  'settings tab 6': 'tr[data-capability]',
  'settings tab 11': '.space-bindings tbody tr',
  'settings tab 12': '.voice-meeting',
};

/** Opens every view, then every Settings tab, and calls `visit` once each has loaded. */
async function visitEveryArea(page: Page, visit: (area: string) => Promise<void>): Promise<void> {
  const views = page.locator('nav.view-tabs').getByRole('button');
  const loaded = async (area: string) => {
    if (READY[area]) await page.locator(`main.pane-main ${READY[area]}`).first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(300); // let the area's first load render
    await visit(area);
  };
  for (const [area, index] of Object.entries(VIEW_INDEX)) {
    if (area === 'settings') continue;
    await views.nth(index).click();
    await page.locator('main.pane-main > *').first().waitFor({ timeout: 30_000 });
    await loaded(area);
  }
  await views.nth(VIEW_INDEX.settings).click();
  const tabs = page.getByRole('tablist').getByRole('tab');
  await tabs.first().waitFor({ timeout: 30_000 });
  for (const index of SETTINGS_TAB_INDEX) {
    await tabs.nth(index).click();
    await page.getByRole('tabpanel').first().waitFor({ timeout: 30_000 });
    await loaded(`settings tab ${index}`);
  }
}

describe('translated areas', () => {
  for (const locale of ['zh-CN', 'ja'] as const) {
    it(`${locale}: each area, with the page around it, has no English leftovers`, async () => {
      const gid = await groupWithActor(locale === 'ja' ? '翻訳チェック' : '翻译检查');
      const { context, page } = await browser.newPage();
      await page.goto(`${web.url}/`);
      await page.evaluate(`localStorage.setItem('cccc.lang', '${locale}')`);
      await page.goto(`${web.url}/?group=${gid}`);
      const views = page.locator('nav.view-tabs').getByRole('button');
      await expect.poll(() => page.evaluate<string>('document.documentElement.lang'), { timeout: 30_000 }).toBe(locale);
      await views.nth(VIEW_INDEX.settings).filter({ hasNotText: 'Settings' }).waitFor({ timeout: 30_000 });
      // Runtime names (claude, codex, ...) are proper names wherever the onboarding lists them.
      const runtimes = new Set(
        await page.evaluate<string[]>("fetch('/api/v1/runtimes').then((r) => r.json()).then((j) => j.result.runtimes.map((r) => r.runtime))"),
      );
      const found: string[] = [];
      await visitEveryArea(page, async (area) => {
        const left = await englishLeftovers(page, runtimes);
        if (left.length > 0) found.push(`${area}: ${left.join(', ')}`);
      });
      expect(found).toEqual([]);
      await context.close();
    }, 120_000);
  }
});

describe('settings tabs', () => {
  const TABS = ['Messaging', 'Delivery', 'Transcript', 'Guidance', 'Automation', 'IM', 'Capabilities', 'Profiles', 'Web Access', 'Remote access', 'Copy Groups', 'Space', 'Voice'];

  it('shows every area as a tab; each opens its panel, by click and by arrow keys', async () => {
    const gid = await groupWithActor('settings-tabs');
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click();
    const tablist = page.getByRole('tablist', { name: 'Settings sections' });
    await tablist.waitFor({ timeout: 30_000 });
    expect(await tablist.getByRole('tab').allTextContents()).toEqual(TABS);
    for (const name of TABS) {
      await tablist.getByRole('tab', { name, exact: true }).click();
      expect(await tablist.getByRole('tab', { name, exact: true }).getAttribute('aria-selected')).toBe('true');
      const panel = page.getByRole('tabpanel', { name, exact: true });
      await panel.waitFor({ timeout: 30_000 });
      await expect.poll(() => panel.evaluate((el) => el.childElementCount), { timeout: 30_000 }).toBeGreaterThan(0);
    }
    // Keyboard: the selected tab takes focus, arrows move the selection.
    await tablist.getByRole('tab', { name: 'Messaging' }).click();
    await page.keyboard.press('ArrowRight');
    expect(await tablist.getByRole('tab', { name: 'Delivery' }).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('End');
    expect(await tablist.getByRole('tab', { name: 'Voice' }).getAttribute('aria-selected')).toBe('true');
    await context.close();
  }, 120_000);

  it('Guidance edits the preamble and an actor note through the daemon', async () => {
    const gid = await groupWithActor('guidance');
    const client = new DaemonClient({ home: daemon.home });
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Guidance' }).click();

    const preamble = page.getByRole('region', { name: 'Startup preamble' });
    await preamble.locator('.ui-chip', { hasText: 'Built-in' }).waitFor({ timeout: 30_000 });
    await preamble.getByLabel('Startup preamble').fill('Be brief. Ship small.');
    await preamble.getByRole('button', { name: 'Save preamble' }).click();
    await preamble.locator('.ui-chip', { hasText: 'Group override' }).waitFor({ timeout: 30_000 });
    expect(await client.call('group_preamble_get', { group_id: gid })).toMatchObject({ overridden: true, content: 'Be brief. Ship small.' });

    const notes = page.getByRole('region', { name: 'Actor notes' });
    await notes.getByLabel('Actor note').fill('lead owns the release notes');
    await notes.getByRole('button', { name: 'Save note' }).click();
    await expect
      .poll(async () => ((await client.call('actor_notes_get', { group_id: gid, target_actor_id: 'lead' })) as { content: string }).content, { timeout: 30_000 })
      .toContain('lead owns the release notes');

    await preamble.getByRole('button', { name: 'Restore built-in' }).click();
    await preamble.locator('.ui-chip', { hasText: 'Built-in' }).waitFor({ timeout: 30_000 });
    expect(await client.call('group_preamble_get', { group_id: gid })).toMatchObject({ overridden: false });
    await context.close();
  }, 120_000);
});

// axe-core is evaluated in the page over the DevTools protocol (not a <script> tag, which the
// shell's CSP would refuse), then run on the whole document.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate<AxeViolation[]>(
    "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target, failureSummary: n.failureSummary })) })))",
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => `${JSON.stringify(n.target)} (${n.failureSummary ?? ''})`).join(', ')}`);
}

const SHOTS = join(tmpdir(), 'cccc-webds-screenshots');

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate(`localStorage.setItem('cccc.theme', '${theme}')`);
}

describe('accessibility and screenshots', () => {
  it('every area and every settings tab has no serious or critical axe violations in either theme', async () => {
    const gid = await groupWithActor('Axe sweep');
    const problems: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      const { context, page } = await browser.newPage();
      await page.goto(`${web.url}/`);
      await setTheme(page, theme);
      await page.goto(`${web.url}/?group=${gid}`);
      await page.locator('nav.view-tabs').getByRole('button').nth(VIEW_INDEX.settings).waitFor({ timeout: 30_000 });
      await visitEveryArea(page, async (area) => {
        problems.push(...(await seriousViolations(page)).map((p) => `${theme} ${area}: ${p}`));
      });
      await context.close();
    }
    expect(problems).toEqual([]);
  }, 180_000);

  it('the main views have no serious or critical axe violations in either theme; desktop and phone screenshots', async () => {
    const gid = await groupWithActor('Release train');
    const client = new DaemonClient({ home: daemon.home });
    await client.call('actor_add', { group_id: gid, actor_id: 'reviewer', runtime: 'custom', command: ['cat'], by: 'user' });
    await client.call('send', { group_id: gid, text: 'Ship the **design system** today; `npm run build` is green.', to: ['lead'], message_mode: 'send', by: 'user' });
    await client.call('send', { group_id: gid, text: '我们今天发布 — 日本語も大丈夫です。', to: ['@all'], message_mode: 'send', by: 'user' });

    const problems: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      const desktop = await browser.browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await desktop.newPage();
      await page.goto(`${web.url}/`);
      await setTheme(page, theme);
      await page.goto(`${web.url}/?group=${gid}`);
      await page.locator('article.msg', { hasText: 'design system' }).waitFor({ timeout: 30_000 });
      await page.locator('.actor-card').first().waitFor({ timeout: 30_000 });
      expect(await themeAttr(page)).toBe(theme);
      problems.push(...(await seriousViolations(page)).map((p) => `${theme} chat: ${p}`));
      await shot(page, `desktop-chat-${theme}`);

      await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click();
      await page.getByLabel('Default recipients').waitFor({ timeout: 30_000 });
      problems.push(...(await seriousViolations(page)).map((p) => `${theme} settings: ${p}`));
      await shot(page, `desktop-settings-${theme}`);
      await page.getByRole('tab', { name: 'Guidance' }).click();
      await page.getByRole('region', { name: 'Startup preamble' }).locator('textarea').waitFor({ timeout: 30_000 });
      problems.push(...(await seriousViolations(page)).map((p) => `${theme} guidance: ${p}`));
      await shot(page, `desktop-settings-guidance-${theme}`);

      await page.getByRole('button', { name: 'Preferences' }).click();
      await page.getByRole('dialog', { name: 'Preferences' }).waitFor({ timeout: 30_000 });
      problems.push(...(await seriousViolations(page)).map((p) => `${theme} preferences: ${p}`));
      await shot(page, `desktop-preferences-${theme}`);
      await desktop.close();

      const { context: phone, page: mobile } = await browser.newPage({ phone: true });
      await mobile.goto(`${web.url}/`);
      await setTheme(mobile, theme);
      await mobile.goto(`${web.url}/`);
      await mobile.locator('.group-item', { hasText: 'Release train' }).waitFor({ timeout: 30_000 });
      problems.push(...(await seriousViolations(mobile)).map((p) => `${theme} phone groups: ${p}`));
      await shot(mobile, `phone-groups-${theme}`);
      await mobile.locator('.group-item', { hasText: 'Release train' }).click();
      await mobile.locator('article.msg', { hasText: 'design system' }).waitFor({ timeout: 30_000 });
      // One row of views, no second "Chat" button anywhere in the top bar.
      expect(await mobile.locator('header.topbar').getByRole('button', { name: 'Chat', exact: true }).count()).toBe(1);
      problems.push(...(await seriousViolations(mobile)).map((p) => `${theme} phone chat: ${p}`));
      await shot(mobile, `phone-chat-${theme}`);
      await mobile.getByRole('navigation', { name: 'Panes' }).getByRole('button', { name: 'Actors' }).click();
      await mobile.locator('.actor-card').first().waitFor({ timeout: 30_000 });
      await shot(mobile, `phone-actors-${theme}`);
      await phone.close();
    }
    console.log(`screenshots: ${SHOTS}`);
    expect(problems).toEqual([]);
  }, 240_000);
});
