import { DaemonClient } from '@cccc/ipc-protocol/node';
import { describe, expect, it } from 'vitest';
import { createAccessToken } from '../auth/tokens.js';
import type { WebServer } from '../server.js';
import type { TestBrowser } from '../testing/browser.js';
import type { DaemonHome } from '../testing/harness.js';
import { useWebStack } from '../testing/web-stack.js';

// Settings › Profiles in a real Chromium against a real daemon: create, edit and delete a global
// actor profile and set/remove/clear its write-only secrets; the routes are admin only.

let daemon: DaemonHome;
let web: WebServer;
let browser: TestBrowser;
useWebStack((s) => ({ daemon, web, browser } = s));

type Profile = { id: string; name?: string; command?: unknown };

describe('Settings › Profiles', () => {
  it('creates, edits and deletes a profile and manages its secrets without ever showing a value', async () => {
    const client = new DaemonClient({ home: daemon.home });
    const { group_id: gid } = await client.call('group_create', { title: 'profiles', by: 'user' });
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}`);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Profiles' }).click();
    const list = page.getByRole('region', { name: 'Actor profiles' });
    await list.getByText('No profiles yet.').waitFor({ timeout: 30_000 });

    // Create
    await list.getByRole('button', { name: 'New profile' }).click();
    const create = page.getByRole('region', { name: 'New profile' });
    await create.getByLabel('Name').fill('reviewer');
    await create.getByLabel('Runtime').fill('custom');
    await create.getByLabel('Command').fill('cat -n');
    await create.getByRole('button', { name: 'Save profile' }).click();
    const row = list.locator('tr[data-profile]', { hasText: 'reviewer' });
    await row.waitFor({ timeout: 30_000 });
    const listed = async () => ((await client.call('actor_profile_list', { by: 'user' })) as { profiles: Profile[] }).profiles;
    const [created] = await listed();
    expect(created).toMatchObject({ name: 'reviewer', command: ['cat', '-n'] });

    // Edit (the editor stays open on the saved profile)
    const edit = page.getByRole('region', { name: 'Edit reviewer' });
    await edit.getByLabel('Command').fill('cat -v');
    await edit.getByRole('button', { name: 'Save profile' }).click();
    await expect.poll(async () => (await listed())[0]?.command, { timeout: 30_000 }).toEqual(['cat', '-v']);
    await row.getByText('cat -v').waitFor({ timeout: 30_000 });

    // Secrets: write-only
    const secrets = page.getByRole('region', { name: 'Secrets' });
    await secrets.getByText('No secrets set.').waitFor({ timeout: 30_000 });
    for (const [key, value] of [
      ['API_KEY', 'sk-very-secret-1234'],
      ['OTHER', 'hunter2-hunter2'],
    ] as const) {
      await secrets.getByLabel('Key', { exact: true }).fill(key);
      await secrets.getByLabel('Value', { exact: true }).fill(value);
      await secrets.getByRole('button', { name: 'Set', exact: true }).click();
      await secrets.locator('code', { hasText: key }).waitFor({ timeout: 30_000 });
    }
    const keys = () => client.call('actor_profile_secret_keys', { profile_id: created!.id, by: 'user' }).then((r) => [...(r as { keys: string[] }).keys].sort());
    expect(await keys()).toEqual(['API_KEY', 'OTHER']);
    expect(await secrets.getByLabel('Value', { exact: true }).inputValue()).toBe('');
    const html = await page.content();
    expect(html).not.toContain('sk-very-secret');
    expect(html).not.toContain('hunter2');
    // The Web's key route carries names only, not even the daemon's masked previews.
    const viaWeb = await page.evaluate(async (id) => (await fetch(`/api/v1/actor-profiles/${id}/secrets`)).json(), created!.id);
    expect(JSON.stringify(viaWeb)).not.toContain('sk-');
    expect(viaWeb).toMatchObject({ ok: true });

    await secrets.getByRole('button', { name: 'Remove API_KEY' }).click();
    await expect.poll(keys, { timeout: 30_000 }).toEqual(['OTHER']);
    await secrets.getByRole('button', { name: 'Clear all' }).click();
    await expect.poll(keys, { timeout: 30_000 }).toEqual([]);
    await secrets.getByText('No secrets set.').waitFor({ timeout: 30_000 });

    // Delete (confirmed)
    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: 'Delete' }).click();
    await list.getByText('No profiles yet.').waitFor({ timeout: 30_000 });
    expect(await listed()).toEqual([]);
    await context.close();
  }, 120_000);

  it('answers a non-admin token with 403 on every profile route', async () => {
    // Last in the file: once a token exists the server asks every browser for one.
    const client = new DaemonClient({ home: daemon.home });
    const { group_id: gid } = await client.call('group_create', { title: 'member', by: 'user' });
    const member = createAccessToken(daemon.home, { admin: false, groups: [gid] });
    const { context, page } = await browser.newPage();
    await page.goto(`${web.url}/?group=${gid}&token=${member.token}`);
    await expect.poll(() => page.locator('.daemon-status').getAttribute('data-state'), { timeout: 30_000 }).toBe('up');
    const statuses = await page.evaluate(async () => {
      const call = async (method: string, path: string, body?: unknown) =>
        (await fetch(`/api/v1${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })).status;
      return [
        await call('GET', '/actor-profiles'),
        await call('PUT', '/actor-profiles', { profile: { name: 'x', runtime: 'custom' } }),
        await call('GET', '/actor-profiles/ap_x'),
        await call('DELETE', '/actor-profiles/ap_x'),
        await call('GET', '/actor-profiles/ap_x/secrets'),
        await call('POST', '/actor-profiles/ap_x/secrets', { clear: true }),
      ];
    });
    expect(statuses).toEqual([403, 403, 403, 403, 403, 403]);
    expect(((await client.call('actor_profile_list', { by: 'user' })) as { profiles: unknown[] }).profiles).toEqual([]);
    await context.close();
  }, 120_000);
});
