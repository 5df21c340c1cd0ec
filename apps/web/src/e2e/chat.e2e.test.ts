import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { WebServer } from '../server.js';
import { saveScreenshot, type TestBrowser } from '../testing/browser.js';
import { until, type DaemonHome } from '../testing/harness.js';
import { startWebStack, type WebStack } from '../testing/web-stack.js';

// The chat, groups, inbox and settings screens against a real daemon with fake-agent actors,
// the real Web port serving the built app, and Debian's headless Chromium.
let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
let stack: WebStack;
let client: DaemonClient;
let scopeDir: string;

beforeAll(async () => {
  stack = await startWebStack();
  ({ daemon, web, browser } = stack);
  client = new DaemonClient({ home: daemon.home });
  scopeDir = mkdtempSync(join(tmpdir(), 'cccc-web-scope-'));
}, 180_000);

afterAll(async () => {
  await stack?.close();
  if (scopeDir) rmSync(scopeDir, { recursive: true, force: true });
}, 60_000);

const row = (page: Page, text: string) => page.locator('article.msg', { hasText: text });
const api = async <T>(path: string, init?: RequestInit): Promise<T> => {
  const res = await fetch(web.url + '/api/v1' + path, init);
  const body = (await res.json()) as { ok: boolean; result: T };
  if (!body.ok) throw new Error(JSON.stringify(body));
  return body.result;
};

describe('the control room in a real browser', () => {
  let gid = '';
  let page: Page;

  it('creates a group in the sidebar, attaches a directory, adds fake agents and starts the group', async () => {
    ({ page } = await browser.newPage());
    await page.goto(web.url + '/');
    await page.getByLabel('New group title').fill('e2e team');
    await page.getByRole('button', { name: 'Create' }).click();
    // Selecting the new group writes the deep link.
    gid = await until(() => new URL(page.url()).searchParams.get('group') ?? '', 'the new group in the URL');
    await expect.poll(() => page.locator('.group-item[aria-current="true"]').textContent(), { timeout: 30_000 }).toContain('e2e team');

    await page.getByLabel('Directory to attach').fill(scopeDir);
    await page.getByRole('region', { name: 'Group controls' }).getByRole('button', { name: 'Attach', exact: true }).click();
    await page.locator('.scope-list code', { hasText: scopeDir }).waitFor({ timeout: 30_000 });

    // Actor setup through the API (the actors panel is another screen's test): the first actor
    // is the foreman.
    for (const id of ['lead', 'peer1']) {
      await api(`/groups/${gid}/actors`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ actor_id: id, runtime: 'custom', command: fakeAgentArgv([]) }),
      });
    }
    await page.getByRole('region', { name: 'Group controls' }).getByRole('button', { name: 'Start', exact: true }).click();
    await expect.poll(() => page.locator('.group-item[aria-current="true"] .state-badge').textContent(), { timeout: 60_000 }).toBe('active');
    await until(async () => (await client.call('actor_list', { group_id: gid })).actors.filter((a) => a.running).length === 2, 'both actors running', 60_000);
  }, 180_000);

  it('sends from the composer with @-completion and shows the delivered status', async () => {
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.click();
    await box.pressSequentially('@pe');
    await page.getByRole('option', { name: '@peer1' }).waitFor();
    await box.press('Enter'); // picks the highlighted completion
    expect(await box.inputValue()).toBe('@peer1 ');
    await box.pressSequentially('hello from the browser');
    await box.press('Shift+Enter');
    await box.pressSequentially('second line');
    expect(await box.inputValue()).toBe('@peer1 hello from the browser\nsecond line');
    await box.press('Enter');
    await expect.poll(() => box.inputValue()).toBe('');

    const sent = row(page, 'hello from the browser');
    await sent.waitFor({ timeout: 30_000 });
    expect(await sent.locator('.mode-chip').textContent()).toBe('send');
    expect(await sent.locator('.msg-to').textContent()).toContain('peer1');
    // Delivery into the fake agent's PTY is reported by runtime.delivery and shown live.
    await sent.locator('li[data-actor="peer1"][data-delivery="accepted"]').waitFor({ timeout: 60_000 });
    expect(await sent.locator('li[data-actor="peer1"] .status-chip').first().textContent()).toMatch(/delivered|typed but not submitted/);
  }, 120_000);

  it('shows mode chips for mail and request_reply, and the reply state once the agent answers', async () => {
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await page.getByLabel('Message mode').selectOption('mail');
    await box.fill('@peer1 mail for you');
    await box.press('Enter');
    const mail = row(page, 'mail for you');
    await mail.waitFor({ timeout: 30_000 });
    expect(await mail.locator('.mode-chip').textContent()).toBe('mail');
    await expect.poll(() => mail.locator('li[data-actor="peer1"]').textContent(), { timeout: 30_000 }).toContain('unread');

    await page.getByLabel('Message mode').selectOption('request_reply');
    await box.fill('@peer1 please answer');
    await box.press('Enter');
    const ask = row(page, 'please answer');
    await ask.waitFor({ timeout: 30_000 });
    expect(await ask.locator('.mode-chip').textContent()).toBe('request reply');
    await expect.poll(() => ask.locator('li[data-actor="peer1"]').textContent(), { timeout: 30_000 }).toContain('awaiting reply');

    // The agent answers (as it would through its MCP tool); the row's status follows live.
    const askId = (await ask.getAttribute('data-event-id'))!;
    await client.call('reply', { group_id: gid, reply_to: askId, text: 'here is my answer', by: 'peer1' });
    await row(page, 'here is my answer').waitFor({ timeout: 30_000 });
    await expect.poll(() => ask.locator('li[data-actor="peer1"]').textContent(), { timeout: 30_000 }).toContain('replied');
    await saveScreenshot(page, 'chat-desktop');
  }, 120_000);

  it('replies with a quote of the original message', async () => {
    const answer = row(page, 'here is my answer');
    await answer.getByRole('button', { name: /^Reply to / }).click();
    await page.locator('.composer-reply', { hasText: 'here is my answer' }).waitFor();
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.fill('thanks, noted');
    await box.press('Enter');
    const reply = row(page, 'thanks, noted');
    await reply.waitFor({ timeout: 30_000 });
    expect(await reply.locator('.msg-quote').textContent()).toContain('here is my answer');
    expect(await reply.locator('.msg-to').textContent()).toContain('peer1');
    expect(await page.locator('.composer-reply').count()).toBe(0);
  }, 120_000);

  it('sends a file attachment through the upload route and links it from the row', async () => {
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await page.getByLabel('Message mode').selectOption('send');
    await page.getByLabel('Attach files').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('attached notes\n') });
    await box.fill('@peer1 see the attached notes');
    await box.press('Enter');
    const sent = row(page, 'see the attached notes');
    await sent.waitFor({ timeout: 30_000 });
    const link = sent.locator('.msg-attachments a', { hasText: 'notes.txt' });
    await link.waitFor();
    const href = (await link.getAttribute('href'))!;
    const body = await page.evaluate(async (url) => (await fetch(url)).text(), href);
    expect(body).toBe('attached notes\n');
  }, 120_000);

  it('shows the Mail inbox of an actor and marks it read (the chat row follows)', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Inbox' }).click();
    await page.getByLabel('Inbox actor').selectOption('peer1');
    const unread = page.locator('.inbox-list li', { hasText: 'mail for you' });
    await unread.waitFor({ timeout: 30_000 });
    await saveScreenshot(page, 'inbox');
    await page.getByRole('button', { name: 'Mark read' }).click();
    await page.getByText('No unread Mail for peer1.').waitFor({ timeout: 30_000 });
    const peek = await api<{ messages: unknown[] }>(`/groups/${gid}/inbox/peer1`);
    expect(peek.messages).toEqual([]);

    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Chat' }).click();
    await expect.poll(() => row(page, 'mail for you').locator('li[data-actor="peer1"]').textContent(), { timeout: 30_000 }).toContain('read');
    expect(await row(page, 'mail for you').locator('li[data-actor="peer1"]').textContent()).not.toContain('unread');
  }, 120_000);

  it('saves group settings (default recipients, notice timers, transcript visibility)', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click();
    // One draft across the Messaging, Delivery and Transcript tabs, saved as one patch.
    await page.getByLabel('Default recipients').selectOption('broadcast');
    await page.getByRole('tab', { name: 'Delivery' }).click();
    await page.getByLabel('Mail notice after (s)').fill('600');
    await page.getByRole('tab', { name: 'Transcript' }).click();
    await page.getByLabel('Transcript visibility').selectOption('all');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor({ timeout: 30_000 });
    const { settings } = await api<{ settings: Record<string, Record<string, unknown>> }>(`/groups/${gid}/settings`);
    expect(settings.messaging?.default_send_to).toBe('broadcast');
    expect(settings.delivery?.mail_notice_after_seconds).toBe(600);
    expect(settings.terminal_transcript?.visibility).toBe('all');

    // A bad value is refused by the form before any request.
    await page.getByRole('tab', { name: 'Delivery' }).click();
    await page.getByLabel('Reply notice after (s)').fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('reply_notice_after_seconds must be a whole number of seconds').waitFor();
    await page.getByLabel('Reply notice after (s)').fill('900');
    await saveScreenshot(page, 'settings');
  }, 120_000);

  it('creates the first access token, which signs this browser in, and revokes it', async () => {
    await page.getByRole('tab', { name: 'Web Access' }).click();
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.getByTestId('new-token').textContent())!;
    expect(token).toMatch(/^acc_/);
    // The Web is now protected: a request without the token is refused ...
    expect((await fetch(web.url + '/api/v1/groups')).status).toBe(401);
    // ... while this browser carries on with the HttpOnly cookie the server set for it.
    const entry = page.locator('.token-list li');
    await entry.waitFor({ timeout: 30_000 });
    expect(await page.evaluate(async () => (await fetch('/api/v1/groups')).status)).toBe(200);
    expect(await page.getByRole('heading', { name: 'Access token required' }).count()).toBe(0);
    await entry.getByRole('button', { name: /^Revoke / }).click();
    await page.getByText('No tokens: this Web is open').waitFor({ timeout: 30_000 });
    expect((await fetch(web.url + '/api/v1/groups')).status).toBe(200);
  }, 120_000);

  it('a deep link /?group=<id> opens that chat, also on a phone-sized screen', async () => {
    const desk = await browser.newPage();
    try {
      await desk.page.goto(`${web.url}/?group=${gid}`);
      await row(desk.page, 'hello from the browser').waitFor({ timeout: 30_000 });
      expect(await desk.page.locator('.group-item[aria-current="true"]').textContent()).toContain('e2e team');
    } finally {
      await desk.context.close();
    }

    const phone = await browser.newPage({ phone: true });
    try {
      await phone.page.goto(`${web.url}/?group=${gid}`);
      await row(phone.page, 'thanks, noted').waitFor({ timeout: 30_000 });
      // One pane at a time: the chat is shown, the sidebar is not.
      expect(await phone.page.locator('.pane-groups').isVisible()).toBe(false);
      expect(await phone.page.getByRole('textbox', { name: 'Message', exact: true }).isVisible()).toBe(true);
      // Page-side code sees the DOM; this file compiles without the DOM library.
      const width = await phone.page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
      await saveScreenshot(phone.page, 'chat-phone');
      await phone.page.getByRole('navigation', { name: 'Panes' }).getByRole('button', { name: 'Groups' }).click();
      expect(await phone.page.locator('.pane-groups').isVisible()).toBe(true);
      expect(await phone.page.getByRole('textbox', { name: 'Message', exact: true }).isVisible()).toBe(false);
      await saveScreenshot(phone.page, 'groups-phone');
    } finally {
      await phone.context.close();
    }
  }, 120_000);
});

describe('a long timeline', () => {
  it('mounts only the rows near the viewport and pages older messages in on scroll-up', async () => {
    const { group_id: gid } = await client.call('group_create', { title: 'long history' });
    await client.call('actor_add', { group_id: gid, actor_id: 'peer1', runtime: 'custom', command: fakeAgentArgv([]) });
    // Mail appends only (no runtime wakes), so 1,200 messages seed quickly.
    const N = 1200;
    for (let i = 0; i < N; i++) await client.call('send', { group_id: gid, text: `seed message ${i}`, to: ['peer1'], message_mode: 'mail' });

    const { page, context } = await browser.newPage();
    onTestFinished(() => context.close());
    await page.goto(`${web.url}/?group=${gid}`);
    await row(page, `seed message ${N - 1}`)
      .waitFor({ timeout: 30_000 })
      .catch(async (error: unknown) => {
        await saveScreenshot(page, 'long-timeline-failure');
        throw error;
      });
    const mounted = await page.locator('article.msg').count();
    expect(mounted).toBeGreaterThan(3);
    expect(mounted).toBeLessThan(100);

    // Scroll to the top until the very first message has been paged in.
    await until(
      async () => {
        await page.locator('.timeline').evaluate((el) => (el.scrollTop = 0));
        return (await row(page, 'seed message 0').count()) > 0;
      },
      'the oldest message after paging up',
      60_000,
    );
    expect(await page.locator('article.msg').count()).toBeLessThan(100);
    // Statuses were fetched for the rows on screen.
    await row(page, 'seed message 0').locator('li[data-actor="peer1"]').waitFor({ timeout: 30_000 });

    // Away from the bottom, one button returns to the newest message.
    await page.getByRole('button', { name: '↓ Jump to latest' }).click();
    await row(page, `seed message ${N - 1}`).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: '↓ Jump to latest' }).count()).toBe(0);

    // Search reads the whole ledger (ledger_search), not only the pages loaded so far.
    await page.getByLabel('Search messages').fill('seed message 777');
    await page.getByLabel('Search messages').press('Enter');
    await page.getByRole('button', { name: /^Back to chat/ }).waitFor({ timeout: 30_000 });
    await row(page, 'seed message 777').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: /^Back to chat/ }).click();
    await row(page, `seed message ${N - 1}`).waitFor({ timeout: 30_000 });
  }, 240_000);
});
