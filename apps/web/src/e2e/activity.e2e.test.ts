import type { RuntimeActivityRecord } from '@cccc/ipc-protocol';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTIVE_RETENTION_MS,
  DONE_RETENTION_MS,
  STUCK_AFTER_MS,
  anchor,
  applyActivity,
  emptyActivity,
  projectBubbles,
  pruneActivity,
  type ActivityState,
} from '../../app/src/activity/activity-store.js';
import { startWebServer, type WebServer } from '../server.js';
import { launchTestBrowser, saveScreenshot, type TestBrowser } from '../testing/browser.js';
import { startDaemonHome, until, type DaemonHome } from '../testing/harness.js';
import { fireClaudeHook, groupWithScope, hookIdentity, installFakeClaude, webApi } from './fake-claude.js';

// The browser's runtime-activity rules (spec pty-runtime-activity.md "Retention and Recovery"),
// first as the pure store, then end to end: real Claude-style hooks from the fake agent (installed
// as `claude`, so the daemon injects `cccc hook claude-state`), the Web snapshot + SSE, Chromium.

const T0 = Date.parse('2026-07-28T03:00:00Z');
let seq = 0;
function rec(over: Partial<RuntimeActivityRecord> & { at?: number } = {}): RuntimeActivityRecord {
  const { at = T0, ...rest } = over;
  return {
    v: 1,
    id: `rev-${++seq}`,
    ts: new Date(at).toISOString(),
    group_id: 'g_x',
    actor_id: 'worker',
    runtime: 'claude',
    activity_id: 'claude:s1:tool:toolu_1',
    kind: 'tool',
    status: 'started',
    event_type: 'PreToolUse',
    session_id: 's1',
    turn_id: null,
    operation_id: 'toolu_1',
    tool_name: 'Bash',
    duration_ms: null,
    ...rest,
  };
}
const apply = (records: RuntimeActivityRecord[], receivedAt = T0): ActivityState => records.reduce((s, r) => applyActivity(s, r, receivedAt), emptyActivity);
const texts = (s: ActivityState, now: number, actor = 'worker') => projectBubbles(s, actor, now).map((b) => b.text);

describe('activity store (browser retention rules)', () => {
  it('a newer revision of the same activity replaces the old one; duplicates and older revisions are ignored', () => {
    const started = rec({ at: T0 });
    const done = rec({ at: T0 + 2000, status: 'completed', event_type: 'PostToolUse', duration_ms: 2000 });
    let s = apply([started, done], T0 + 2000);
    expect(texts(s, T0 + 2000)).toEqual(['Bash done']);
    s = applyActivity(s, started, T0 + 2100); // a replay of the older revision
    expect(texts(s, T0 + 2100)).toEqual(['Bash done']);
    expect(applyActivity(s, done, T0 + 2200)).toBe(s); // exact duplicate: same state object
  });

  it('a real completion supersedes a stuck revision whatever its timestamp; an active revision never reopens a finished tool', () => {
    const stuck = rec({ at: T0 + 70_000, status: 'stuck' });
    const completedEarlier = rec({ at: T0 + 65_000, status: 'completed', event_type: 'PostToolUse' });
    const s = apply([rec({ at: T0 }), stuck, completedEarlier], T0 + 70_000);
    expect(projectBubbles(s, 'worker', T0 + 70_000).map((b) => b.status)).toEqual(['completed']);
    const reopened = applyActivity(s, rec({ at: T0 + 90_000, status: 'started' }), T0 + 70_000);
    expect(projectBubbles(reopened, 'worker', T0 + 70_000).map((b) => b.status)).toEqual(['completed']);
  });

  it('completed records stay eight seconds, active ones at most five minutes', () => {
    const done = apply([rec({ at: T0, status: 'completed' })], T0);
    expect(texts(done, T0 + DONE_RETENTION_MS)).toEqual(['Bash done']);
    expect(texts(done, T0 + DONE_RETENTION_MS + 1)).toEqual([]);
    expect(pruneActivity(done, T0 + DONE_RETENTION_MS + 1).size).toBe(0);
    expect(pruneActivity(done, T0 + 1000)).toBe(done);

    const active = apply([rec({ at: T0 })], T0);
    expect(projectBubbles(active, 'worker', T0 + ACTIVE_RETENTION_MS)).toHaveLength(1);
    expect(pruneActivity(active, T0 + ACTIVE_RETENTION_MS + 1).size).toBe(0);
  });

  it('a completion hydrated from a snapshot keeps its own age (not eight seconds from the reload)', () => {
    const s = apply([rec({ at: T0, status: 'completed' })], T0 + 6000);
    expect(texts(s, T0 + 7000)).toEqual(['Bash done']);
    expect(texts(s, T0 + 9000)).toEqual([]);
    // a server clock ahead of ours never extends the display
    expect(anchor(rec({ at: T0 + 60_000 }), T0)).toBe(T0);
  });

  it('an active tool that has not advanced for 60 s is shown stuck; a stuck tool suppresses the stuck turn', () => {
    const turn = rec({ activity_id: 'claude:s1:turn:t1', kind: 'turn', tool_name: null, operation_id: null, event_type: 'UserPromptSubmit' });
    const s = apply([turn, rec({ at: T0 + 1000 })], T0 + 1000);
    expect(texts(s, T0 + 30_000)).toEqual(['Running Bash']); // a running turn makes no bubble
    expect(texts(s, T0 + 1000 + STUCK_AFTER_MS + 1)).toEqual(['Bash stuck']);
    const turnOnly = apply([turn], T0);
    expect(texts(turnOnly, T0 + STUCK_AFTER_MS + 1)).toEqual(['Turn stuck']);
  });

  it('session start and turn start make no bubble; a session end closes its open tools', () => {
    const session = rec({ activity_id: 'claude:s1:session:s1', kind: 'session', tool_name: null, event_type: 'SessionStart' });
    let s = apply([session, rec({ activity_id: 'claude:s1:turn:t1', kind: 'turn', tool_name: null })], T0);
    expect(texts(s, T0)).toEqual([]);
    s = applyActivity(s, rec({ at: T0 + 1000 }), T0 + 1000);
    s = applyActivity(s, { ...session, id: 'end', ts: new Date(T0 + 2000).toISOString(), status: 'completed', event_type: 'SessionEnd' }, T0 + 2000);
    expect(projectBubbles(s, 'worker', T0 + 2000).map((b) => b.status)).toEqual(['completed']);
  });

  it('bubbles are per actor and tool names reach the page only as the sanitized label', () => {
    const s = apply([rec({ actor_id: 'other', tool_name: 'mcp__x__y<script>' }), rec({ activity_id: 'a2' })]);
    expect(texts(s, T0, 'other')).toEqual(['Running mcp__x__yscript']);
    expect(texts(s, T0, 'worker')).toEqual(['Running Bash']);
  });
});

describe('activity ticker and working-state badge in Chromium', () => {
  let daemon: DaemonHome;
  let web: WebServer;
  let browser: TestBrowser;
  let gid: string;
  let otherGid: string;

  beforeAll(async () => {
    daemon = await startDaemonHome();
    web = await startWebServer({ home: daemon.home, port: 0 });
    browser = await launchTestBrowser();
    gid = await groupWithScope(web.url, daemon.home, 'activity-e2e');
    otherGid = await groupWithScope(web.url, daemon.home, 'activity-elsewhere');
    const claude = installFakeClaude(daemon.home);
    // It "thinks" a few seconds per prompt, so the working state is visible before the tool runs.
    await webApi(web.url, 'POST', `/groups/${gid}/actors`, { actor_id: 'agent1', runtime: 'custom', command: [claude, '--thinking-ms', '6000'] });
    await webApi(web.url, 'POST', `/groups/${gid}/actors/agent1/start`);
    // SessionStart went through the real hook and the daemon committed the session.
    await until(() => hookIdentity(daemon.home, gid, 'agent1'), 'hook session', 60_000);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await daemon?.stop();
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
    await expect.poll(() => bubble.getAttribute('data-status'), { timeout: 30_000 }).toBe('started');

    // A fresh page (no state at all) hydrates the same view.
    const fresh = await browser.newPage();
    await fresh.page.goto(`${web.url}/?group=${gid}`);
    await expect.poll(() => bubbles(fresh.page).filter({ hasText: 'Running mcp__github__search' }).count(), { timeout: 30_000 }).toBe(1);
    await fresh.context.close();

    expect(await fireClaudeHook(daemon.home, gid, 'agent1', id.launch_token, { ...tool, hook_event_name: 'PostToolUse', tool_response: { ok: true } })).toBe(0);
    await expect.poll(() => bubble.getAttribute('data-status'), { timeout: 30_000 }).toBe('completed');
    expect(await bubble.textContent()).toContain('mcp__github__search done');
    await expect.poll(() => bubble.count(), { timeout: 30_000 }).toBe(0);
    await context.close();
  }, 180_000);
});
