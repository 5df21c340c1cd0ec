import { DaemonClient } from '@cccc/ipc-protocol/node';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { WebServer } from '../server.js';
import { saveScreenshot, type TestBrowser } from '../testing/browser.js';
import type { DaemonHome } from '../testing/harness.js';
import { useWebStack } from '../testing/web-stack.js';

// The Capabilities section of Settings against a real daemon: the catalog, enabling a pack for
// one actor (its tools show up in that actor's visible list), blocking it for the group, and the
// HTTP routes behind it.

let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
useWebStack((s) => ({ daemon, web, browser } = s));

const api = async <T>(path: string, init?: RequestInit): Promise<{ ok: boolean; result: T; error?: { code: string } }> => {
  const res = await fetch(web.url + '/api/v1' + path, init);
  return (await res.json()) as { ok: boolean; result: T; error?: { code: string } };
};
const post = (path: string, body: unknown) => api<Record<string, unknown>>(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

describe('Settings › Capabilities in a real browser', () => {
  it('lists the catalog, enables a pack for an actor, blocks it for the group', async () => {
    const client = new DaemonClient({ home: daemon.home });
    const { group_id: gid } = await client.call('group_create', { title: 'caps', by: 'user' });
    for (const id of ['lead', 'peer1']) await client.call('actor_add', { group_id: gid, actor_id: id, runtime: 'custom', command: ['cat'], by: 'user' });

    const { page } = (await browser.newPage()) as { page: Page };
    await page.goto(`${web.url}/?group=${gid}`);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Capabilities' }).click();
    const panel = page.getByRole('group', { name: 'Capabilities' });
    await panel.locator('tr[data-capability="pack:diagnostics"]').waitFor({ timeout: 30_000 });
    await panel.getByLabel('Capability actor').selectOption('peer1');
    await expect.poll(() => panel.getByLabel('Visible tools').textContent(), { timeout: 30_000 }).toContain('peer1 sees');
    expect(await panel.getByLabel('Visible tools').textContent()).not.toContain('cccc_terminal');

    await panel.getByRole('button', { name: 'Enable pack:diagnostics' }).click();
    await expect.poll(() => panel.getByLabel('Visible tools').textContent(), { timeout: 30_000 }).toContain('cccc_terminal');
    expect((await client.call('capability_state', { group_id: gid, actor_id: 'peer1' })).enabled_capabilities).toEqual(['pack:diagnostics']);

    await panel.getByRole('button', { name: 'Block pack:diagnostics' }).click();
    await expect.poll(() => panel.locator('tr[data-capability="pack:diagnostics"] td').nth(3).textContent(), { timeout: 30_000 }).toBe('blocked');
    expect(await panel.getByLabel('Visible tools').textContent()).not.toContain('cccc_terminal');
    await saveScreenshot(page, 'settings-capabilities');
    await panel.getByRole('button', { name: 'Unblock pack:diagnostics' }).click();
    await expect.poll(() => panel.locator('tr[data-capability="pack:diagnostics"] td').nth(3).textContent(), { timeout: 30_000 }).toBe('—');

    await panel.getByLabel('Search capabilities').fill('review');
    await panel.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => panel.locator('tbody tr').count(), { timeout: 30_000 }).toBe(1);
    await panel.locator('tr[data-capability="skill:cccc:code-review"]').waitFor({ timeout: 30_000 });
  }, 120_000);

  it('the HTTP routes map onto the capability ops', async () => {
    const client = new DaemonClient({ home: daemon.home });
    const { group_id: gid } = await client.call('group_create', { title: 'caps-http', by: 'user' });
    await client.call('actor_add', { group_id: gid, actor_id: 'lead', runtime: 'custom', command: ['cat'], by: 'user' });
    const overview = await api<{ items: Array<{ capability_id: string }>; allowlist_revision: string }>('/capabilities?query=terminal&limit=5');
    expect(overview.result.items.map((i) => i.capability_id)).toEqual(['pack:diagnostics']);
    const allowlist = await api<{ revision: string }>('/capabilities/allowlist');
    expect(allowlist.result.revision).toBe(overview.result.allowlist_revision);
    expect((await post('/capabilities/allowlist/validate', { patch: { external_capability_safety_mode: 'sometimes' } })).result).toMatchObject({ valid: false });
    const state = await api<{ visible_tools: string[]; is_foreman: boolean }>(`/groups/${gid}/capabilities/state?actor_id=lead`);
    expect(state.result).toMatchObject({ is_foreman: true });
    expect(state.result.visible_tools).toContain('cccc_group');
    const enabled = await post(`/groups/${gid}/capabilities/enable`, { capability_id: 'skill:cccc:handoff', scope: 'group' });
    expect(enabled.result).toMatchObject({ state: 'runnable', scope: 'group', actor_id: 'user' });
    const search = await api<{ items: unknown[]; search_diagnostics: { remote_augmented: boolean } }>(`/groups/${gid}/capabilities/search?query=handoff&include_external=false`);
    expect(search.result.items).toHaveLength(1);
    expect((await post(`/groups/${gid}/capabilities/enable`, { capability_id: 'pack:nope' })).error?.code).toBe('capability_not_found');
    const uninstalled = await post(`/groups/${gid}/capabilities/uninstall`, { capability_id: 'skill:cccc:handoff' });
    expect(uninstalled.result).toMatchObject({ removed_bindings: 1 });
  }, 60_000);
});
