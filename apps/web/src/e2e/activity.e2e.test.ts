import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebServer } from '../server.js';
import { saveScreenshot, type TestBrowser } from '../testing/browser.js';
import { until, type DaemonHome } from '../testing/harness.js';
import { startWebStack, type WebStack } from '../testing/web-stack.js';
import { fireClaudeHook, groupWithScope, hookIdentity, installFakeClaude, webApi } from './fake-claude.js';

// The runtime activity ticker end to end (the store's rules are unit-tested beside it in
// app/src/activity): real Claude-style hooks from the fake agent (installed as `claude`, so the
// daemon injects `cccc hook claude-state`), the Web snapshot + SSE, Chromium.

describe('activity ticker and working-state badge in Chromium', () => {
  let daemon: DaemonHome;
  let web: WebServer;
  let browser: TestBrowser;
  let stack: WebStack;
  let gid: string;
  let otherGid: string;

  beforeAll(async () => {
    stack = await startWebStack();
    ({ daemon, web, browser } = stack);
    gid = await groupWithScope(web.url, daemon.home, 'activity-e2e');
    otherGid = await groupWithScope(web.url, daemon.home, 'activity-elsewhere');
    const claude = installFakeClaude(daemon.home);
    // Its tool runs a few seconds per turn, so the working state (UserPromptSubmit → Stop) stays
    // long enough to be seen: with hooks over HTTP a bare turn is over in milliseconds.
    await webApi(web.url, 'POST', `/groups/${gid}/actors`, { actor_id: 'agent1', runtime: 'custom', command: [claude, '--thinking-ms', '1000', '--tool-ms', '6000'] });
    await webApi(web.url, 'POST', `/groups/${gid}/actors/agent1/start`);
    // SessionStart went through the real hook and the daemon committed the session.
    await until(() => hookIdentity(daemon.home, gid, 'agent1'), 'hook session', 60_000);
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  }, 60_000);

  const bubbles = (page: Page) => page.locator('.actor-card[data-actor="agent1"] .activity-bubble');

  it('a message makes the agent work: the badge says working from the hook, a tool bubble appears, completes and leaves after a few seconds', async () => {
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    const badge = page.locator('.actor-card[data-actor="agent1"] .working-badge');
    await badge.waitFor({ timeout: 60_000 });
    await expect.poll(() => badge.getAttribute('data-state'), { timeout: 30_000 }).toMatch(/idle|waiting/);

    await webApi(web.url, 'POST', `/groups/${gid}/send`, { text: 'please run a tool', to: ['agent1'] });
    await expect.poll(() => badge.textContent(), { timeout: 30_000 }).toBe('working · hook');
    await saveScreenshot(page, 'actors-working');
    // PreToolUse → PostToolUse of the agent's Bash tool, through cccc hook claude-state.
    await expect.poll(() => bubbles(page).filter({ hasText: 'Bash' }).count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => bubbles(page).first().getAttribute('data-status'), { timeout: 30_000 }).toBe('completed');
    await saveScreenshot(page, 'activity-ticker');
    // Completed tools stay briefly visible without keeping the actor working.
    await expect.poll(() => badge.getAttribute('data-state'), { timeout: 30_000 }).toBe('idle');
    await expect.poll(() => bubbles(page).count(), { timeout: 30_000 }).toBe(0);
    await context.close();
  }, 180_000);

  it('an active tool is shown; leaving the group clears the ticker, returning re-hydrates it from snapshot + replay; its completion then replaces it', async () => {
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    await page.locator('.actor-card[data-actor="agent1"]').waitFor({ timeout: 30_000 });
    const id = hookIdentity(daemon.home, gid, 'agent1')!;
    const tool = { session_id: id.session_id, cwd: '/', transcript_path: '/tmp/t.jsonl', tool_name: 'mcp__github__search', tool_use_id: 'toolu_e2e_1', tool_input: { query: 'private' } };
    expect(await fireClaudeHook(daemon.home, gid, 'agent1', id.launch_token, { ...tool, hook_event_name: 'PreToolUse' })).toBe(0);
    const bubble = bubbles(page).filter({ hasText: 'mcp__github__search' });
    await expect.poll(() => bubble.getAttribute('data-status'), { timeout: 30_000 }).toBe('started');
    expect(await bubble.textContent()).toContain('Running mcp__github__search');
    await saveScreenshot(page, 'activity-ticker-active');
    expect(await page.content()).not.toContain('private');

    // Leave through the group sidebar (in-app navigation, no reload).
    await page.locator('.pane-groups').getByText('activity-elsewhere').first().click();
    await expect.poll(() => new URL(page.url()).searchParams.get('group'), { timeout: 30_000 }).toBe(otherGid);
    expect(await page.locator('.activity-bubble').count()).toBe(0);
    await page.locator('.pane-groups').getByText('activity-e2e').first().click();
    // Still active (on a slow machine more than 60 s may have passed: then it reads "stuck").
    await expect.poll(() => bubble.getAttribute('data-status'), { timeout: 30_000 }).toMatch(/^(started|stuck)$/);

    // A fresh page (no state at all) hydrates the same view.
    const fresh = await browser.newPage();
    await fresh.page.goto(`${web.url}/?group=${gid}`);
    await expect.poll(() => bubbles(fresh.page).filter({ hasText: 'mcp__github__search' }).first().getAttribute('data-status'), { timeout: 30_000 }).toMatch(/^(started|stuck)$/);
    await fresh.context.close();

    expect(await fireClaudeHook(daemon.home, gid, 'agent1', id.launch_token, { ...tool, hook_event_name: 'PostToolUse', tool_response: { ok: true } })).toBe(0);
    await expect.poll(() => bubble.getAttribute('data-status'), { timeout: 30_000 }).toBe('completed');
    expect(await bubble.textContent()).toContain('mcp__github__search done');
    await expect.poll(() => bubble.count(), { timeout: 30_000 }).toBe(0);
    await context.close();
  }, 180_000);
});
