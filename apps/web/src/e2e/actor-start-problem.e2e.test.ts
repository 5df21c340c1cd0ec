import { expect, it } from 'vitest';
import type { WebServer } from '../server.js';
import { saveScreenshot, type TestBrowser } from '../testing/browser.js';
import type { DaemonHome } from '../testing/harness.js';
import { useWebStack } from '../testing/web-stack.js';
import { groupWithScope, webApi } from './fake-claude.js';

// An actor that did not start says why on its card (issue 15, honest starts): a real daemon
// runs an agent that exits 3 at once after printing its reason, and one whose executable is missing.
let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
useWebStack((stack) => ({ daemon, web, browser } = stack));

it('the actor card shows why an actor did not start: exit code, last output, missing executable', async () => {
  const gid = await groupWithScope(web.url, daemon.home, 'start-problem-e2e');
  const quick = ['sh', '-c', 'X=file; echo "quick: config $X is broken"; exit 3'];
  await webApi(web.url, 'POST', `/groups/${gid}/actors`, { actor_id: 'quick', runtime: 'custom', command: quick });
  await webApi(web.url, 'POST', `/groups/${gid}/actors`, { actor_id: 'ghost', runtime: 'custom', command: ['cccc-test-no-such-agent'] });
  await expect(webApi(web.url, 'POST', `/groups/${gid}/actors/quick/start`)).rejects.toThrow(/runtime_start_failed/);
  await expect(webApi(web.url, 'POST', `/groups/${gid}/actors/ghost/start`)).rejects.toThrow(/runtime_start_failed/);

  const { context, page } = await browser.newPage();
  await page.goto(`${web.url}/?group=${gid}`);
  const quickCard = page.locator('.actor-card[data-actor="quick"]');
  const problem = quickCard.locator('.start-problem[data-kind="failure"]');
  await problem.waitFor({ timeout: 30_000 });
  expect(await problem.getAttribute('data-code')).toBe('exited_early');
  expect(await problem.locator('p').textContent()).toBe('Did not start: exited with code 3 within 1.5 s of starting');
  expect(await problem.getByLabel('last output of quick').textContent()).toBe('quick: config file is broken');

  const ghost = page.locator('.actor-card[data-actor="ghost"] .start-problem');
  await ghost.waitFor({ timeout: 30_000 });
  expect(await ghost.getAttribute('data-code')).toBe('executable_not_found');
  expect(await ghost.locator('p').textContent()).toContain('cccc-test-no-such-agent');
  await saveScreenshot(page, 'actor-start-problem');
  await context.close();
}, 180_000);
