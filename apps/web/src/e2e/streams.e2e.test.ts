import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebServer } from '../server.js';
import type { TestBrowser } from '../testing/browser.js';
import type { DaemonHome } from '../testing/harness.js';
import { startWebStack, type WebStack } from '../testing/web-stack.js';
import { groupWithScope, webApi } from './fake-claude.js';

// A browser allows 6 HTTP/1.1 connections per host: the app must hold at most 3 SSE streams
// per page (global events, ONE shared group ledger stream, runtime activity), or a second tab
// starves its fetches. Counted on the real EventSource in Chromium, while the chat timeline and
// the actors panel both still update live from the shared ledger stream.
let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
let stack: WebStack;
let gid: string;

beforeAll(async () => {
  stack = await startWebStack();
  ({ daemon, web, browser } = stack);
  gid = await groupWithScope(web.url, daemon.home, 'streams-e2e');
}, 180_000);

afterAll(async () => {
  await stack?.close();
}, 60_000);

type Counts = { open: string[]; maxOpen: number; created: number };

/**
 * Wraps window.EventSource before the app runs: every instance is counted until it closes.
 * Plain JS text (this package's tsconfig has no DOM types; it runs in the page).
 */
const COUNT_EVENT_SOURCES = `(() => {
  const Native = window.EventSource;
  const live = new Set();
  const state = { maxOpen: 0, created: 0 };
  const openOnes = () => [...live].filter((s) => s.readyState !== Native.CLOSED);
  class Counted extends Native {
    constructor(url, init) {
      super(url, init);
      state.created++;
      live.add(this);
      state.maxOpen = Math.max(state.maxOpen, openOnes().length);
    }
    close() {
      live.delete(this);
      super.close();
    }
  }
  window.EventSource = Counted;
  window.__sse = () => ({ open: openOnes().map((s) => new URL(s.url).pathname), ...state });
})();`;

describe('SSE connections per page', () => {
  it('a chat page with the actors panel holds at most 3 streams, one per group ledger, and both views update live', async () => {
    const { context, page } = await browser.newPage();
    await page.addInitScript({ content: COUNT_EVENT_SOURCES });
    await page.goto(`${web.url}/?group=${gid}`);
    const panel = page.locator('.actors-panel');
    await panel.getByText('No actors yet.').waitFor({ timeout: 30_000 });
    await page.getByRole('textbox', { name: 'Message', exact: true }).waitFor({ timeout: 30_000 });
    const counts = () => page.evaluate<Counts>('window.__sse()');
    // The chat subscribes once its first page is read; wait until all three kinds are open.
    await expect.poll(async () => (await counts()).open.sort(), { timeout: 30_000 }).toEqual(
      [`/api/v1/events/stream`, `/api/v1/groups/${gid}/ledger/stream`, `/api/v1/groups/${gid}/runtime-activity/stream`].sort(),
    );

    // An actor added through the API reaches the actors panel (and the composer's completion).
    await webApi(web.url, 'POST', `/groups/${gid}/actors`, { actor_id: 'live1', runtime: 'custom', command: fakeAgentArgv() });
    await panel.locator('.actor-card[data-actor="live1"]').waitFor({ timeout: 30_000 });

    // A message sent through the API appears in the timeline.
    await webApi(web.url, 'POST', `/groups/${gid}/send`, { text: 'hello over the shared stream', to: ['live1'] });
    await page.locator('article.msg', { hasText: 'hello over the shared stream' }).waitFor({ timeout: 30_000 });

    const after = await counts();
    expect(after.open.length).toBeLessThanOrEqual(3);
    expect(after.open.filter((p) => p.endsWith('/ledger/stream'))).toHaveLength(1);
    expect(after.maxOpen).toBeLessThanOrEqual(3);
    await context.close();
  }, 120_000);
});
