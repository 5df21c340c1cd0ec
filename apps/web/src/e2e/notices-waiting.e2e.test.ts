import { DaemonClient } from '@cccc/ipc-protocol/node';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WebServer } from '../server.js';
import { savePhoneScreenshot, saveScreenshot, type TestBrowser } from '../testing/browser.js';
import { until, type DaemonHome } from '../testing/harness.js';
import { useWebStack } from '../testing/web-stack.js';
import { groupWithScope, hookIdentity, installFakeClaude, webApi } from './fake-claude.js';

// Issue 32, notices and waiting states: system.notify for the user inline in the conversation;
// a real permission prompt of a Claude-like agent (the fake agent installed as `claude`, its
// hooks injected by the daemon; `fake:permission` makes its tool step ask) shown as "lead is
// waiting for permission: Bash" with a link to its terminal, the ticker saying so and not
// "stuck" past the daemon's stuck threshold, and the prompt answered with the card's Enter and Esc keys.
let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
let client: DaemonClient;
let gid: string;
// The daemon calls an open tool stuck after 4 s here, not a minute: the test waits that out.
const STUCK_MS = 4_000;
useWebStack((stack) => ({ daemon, web, browser } = stack), { daemonEnv: { CCCC_ACTIVITY_STUCK_MS: String(STUCK_MS) } });

beforeAll(async () => {
  client = new DaemonClient({ home: daemon.home });
  gid = await groupWithScope(web.url, daemon.home, 'waiting-e2e');
  const claude = installFakeClaude(daemon.home);
  await webApi(web.url, 'POST', `/groups/${gid}/actors`, { actor_id: 'lead', runtime: 'custom', command: [claude, '--title', 'lead-agent'] });
  await webApi(web.url, 'POST', `/groups/${gid}/actors`, { actor_id: 'peer1', runtime: 'custom', command: [claude] });
  await webApi(web.url, 'POST', `/groups/${gid}/start`);
  await until(() => hookIdentity(daemon.home, gid, 'lead') && hookIdentity(daemon.home, gid, 'peer1'), 'hook sessions', 60_000);
}, 180_000);

/** The PTY's size as a fresh read-only attach reports it. */
async function ptySize(): Promise<string> {
  const viewer = await client.openTermAttach({ group_id: gid, actor_id: 'lead', by: 'user', mode: 'viewer', bootstrap: 'snapshot_v1' });
  viewer.close();
  return `${viewer.handshake.initial_output?.cols}x${viewer.handshake.initial_output?.rows}`;
}

const banner = (page: Page) => page.locator('.waiting-banner li[data-actor="lead"]');
const card = (page: Page) => page.locator('.actor-card[data-actor="lead"]');
const bashBubble = (page: Page) => card(page).locator('.activity-bubble', { hasText: 'Bash' });

describe('notices and waiting states in the conversation', () => {
  it('shows the notices meant for the user, not an agent\'s own reminders', async () => {
    await client.call('system_notify', { group_id: gid, by: 'lead', kind: 'info', priority: 'high', title: 'Deploy blocked', message: 'The staging **database** is read-only.' });
    await client.call('system_notify', { group_id: gid, by: 'system', kind: 'nudge', title: 'peer1, please reply', message: 'only for peer1', target_actor_id: 'peer1' });
    await client.call('send', { group_id: gid, by: 'peer1', to: ['user'], message_mode: 'send', text: 'after the notices' });
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    await page.locator('article.msg', { hasText: 'after the notices' }).waitFor({ timeout: 30_000 });
    const notice = page.locator('.notice', { hasText: 'Deploy blocked' });
    expect(await notice.getAttribute('data-priority')).toBe('high');
    await notice.locator('strong', { hasText: 'database' }).waitFor({ timeout: 30_000 });
    expect(await notice.textContent()).toContain('from lead');
    expect(await page.locator('.notice', { hasText: 'please reply' }).count()).toBe(0);
    await saveScreenshot(page, 'notices-desktop');
    await savePhoneScreenshot(browser, `${web.url}/?group=${gid}`, 'notices', (p) => p.locator('.notice', { hasText: 'Deploy blocked' }).waitFor({ timeout: 30_000 }));
    await context.close();
  }, 120_000);

  it('"lead is waiting for permission: Bash" with a link to its terminal; still waiting, not stuck, past the stuck threshold; Enter on the card answers it', async () => {
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    await card(page).waitFor({ timeout: 30_000 });
    await webApi(web.url, 'POST', `/groups/${gid}/send`, { text: 'please run it fake:permission', to: ['lead'] });
    await expect.poll(() => banner(page).textContent(), { timeout: 60_000 }).toContain('lead is waiting for permission: Bash');
    expect(await card(page).locator('.actor-waiting').textContent()).toBe('lead is waiting for permission: Bash');
    await expect.poll(() => bashBubble(page).textContent(), { timeout: 30_000 }).toContain('Bash waiting for permission');
    expect(await bashBubble(page).getAttribute('data-status')).toBe('waiting');
    expect(await card(page).locator('.working-badge').textContent()).toBe('waiting · hook');
    await saveScreenshot(page, 'waiting-desktop');
    await savePhoneScreenshot(browser, `${web.url}/?group=${gid}`, 'waiting', (p) => p.locator('.waiting-banner li[data-actor="lead"]').waitFor({ timeout: 30_000 }));

    // The link opens lead's terminal, where the prompt is.
    const link = banner(page).getByRole('link', { name: 'Open terminal' });
    expect(await link.getAttribute('href')).toContain('actor=lead');
    await link.click();
    await expect.poll(() => new URL(page.url()).searchParams.get('actor')).toBe('lead');
    await expect.poll(() => page.locator('.terminal-host .xterm-rows').innerText(), { timeout: 30_000 }).toContain('permission: allow Bash? (y/n)');
    await page.getByRole('button', { name: 'Close terminal' }).click();

    // A person takes longer than the stuck threshold (a minute by default): the daemon's snapshot
    // calls the open tool stuck, the hooks say it waits for permission, and a fresh page believes
    // the hooks.
    const leadTools = async () => (await client.call('runtime_activity_snapshot', { group_id: gid })).events.filter((e) => e.actor_id === 'lead' && e.kind === 'tool').map((e) => e.status);
    await expect.poll(leadTools, { timeout: 30_000 }).toContain('stuck');
    await page.reload();
    await expect.poll(() => bashBubble(page).textContent(), { timeout: 30_000 }).toContain('Bash waiting for permission');
    expect(await page.locator('.activity-bubble', { hasText: 'stuck' }).count()).toBe(0);
    await banner(page).waitFor();
    await saveScreenshot(page, 'waiting-after-a-minute-desktop');

    // Enter on the card answers the prompt (yes): the tool runs and the wait is over.
    await card(page).getByRole('button', { name: 'Send Enter to lead' }).click();
    await expect.poll(() => banner(page).count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => card(page).locator('.working-badge').textContent(), { timeout: 30_000 }).not.toContain('waiting');
    await context.close();
  }, 240_000);

  it('Esc on the card declines a prompt through a short attach that neither resizes the terminal nor takes control', async () => {
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    const size = await ptySize();
    await webApi(web.url, 'POST', `/groups/${gid}/send`, { text: 'again fake:permission', to: ['lead'] });
    await expect.poll(() => banner(page).textContent(), { timeout: 60_000 }).toContain('waiting for permission: Bash');
    const tail = async () => (await client.call('terminal_tail', { group_id: gid, actor_id: 'lead', max_chars: 4000, strip_ansi: true })).text;
    // The banner follows the agent's Notification hook, which fires before the scripted agent
    // draws its dialog and starts reading the answer; a key sent in between is lost (as in a
    // real TUI still starting its dialog). A person sees the dialog first: so does the test.
    await expect.poll(tail, { timeout: 30_000 }).toMatch(/allow Bash\? \(y\/n\) *$/);
    await card(page).getByRole('button', { name: 'Send Esc to lead' }).click();
    await card(page).getByText('Esc sent').waitFor({ timeout: 10_000 });
    await expect.poll(() => banner(page).count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(tail, { timeout: 30_000 }).toMatch(/allow Bash\? \(y\/n\) no/);
    expect(await ptySize()).toBe(size);
    // The short attach lets go of the writer role once it closed: a control attach gets it.
    const writable = async () => {
      const after = await client.openTermAttach({ group_id: gid, actor_id: 'lead', by: 'user', mode: 'control' });
      after.close();
      return after.handshake.terminal_writable;
    };
    await expect.poll(writable, { timeout: 10_000 }).toBe(true);
    await context.close();
  }, 180_000);
});
