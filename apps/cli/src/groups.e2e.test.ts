import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemonHome } from './e2e-harness.js';

const cli = useDaemonHome();

describe('cccc groups, group, use, attach (real daemon)', () => {
  it('creates a group, makes it active, shows it without --group and lists it', async () => {
    const created = await cli.json(['group', 'create', '--title', 'Team A', '--topic', 'testing']);
    expect(created.group_id).toMatch(/^g_[0-9a-f]{12}$/);

    const use = await cli.cccc(['use', created.group_id]);
    expect(use.code).toBe(0);
    expect(use.stdout).toContain(`active group: ${created.group_id}`);
    expect(JSON.parse(readFileSync(join(cli.home(), 'active.json'), 'utf8')).active_group_id).toBe(created.group_id);

    const shown = await cli.cccc(['group', 'show']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(created.group_id);
    expect(shown.stdout).toContain('Team A');
    expect((await cli.json(['group', 'show'])).group).toMatchObject({ group_id: created.group_id, title: 'Team A', topic: 'testing' });

    const table = await cli.cccc(['groups']);
    expect(table.stdout).toMatch(/^GROUP_ID\s+TITLE\s+STATE\s+ACTORS/);
    expect(table.stdout).toMatch(new RegExp(`${created.group_id}\\s+Team A\\s+\\w+\\s+0\\n`));
    expect((await cli.json(['groups'])).groups.map((g: { group_id: string }) => g.group_id)).toContain(created.group_id);
  });

  it('refuses `use` of an unknown group and leaves active.json alone', async () => {
    const res = await cli.cccc(['use', 'g_000000000000']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error: group_not_found: /);
    expect((await cli.json(['use'])).active_group_id).toBeNull();
  });

  it('without --group or an active group, a group command fails with no_active_group', async () => {
    const res = await cli.cccc(['actor', 'list']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error: no_active_group: /);
    const json = await cli.cccc(['send', 'hi', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: 'no_active_group' } });
  });

  it('updates, sets the state of and deletes a group', async () => {
    const { group_id } = await cli.json(['group', 'create', '--title', 'old']);
    const updated = await cli.json(['group', 'update', '--group', group_id, '--title', 'new']);
    expect(updated.group.title).toBe('new');
    const paused = await cli.json(['group', 'set-state', 'paused', '--group', group_id]);
    expect(paused).toMatchObject({ group_id, state: 'paused' });
    expect((await cli.cccc(['group', 'set-state', 'sleepy', '--group', group_id])).stderr).toMatch(/^error: invalid_state: /);

    const unconfirmed = await cli.cccc(['group', 'delete', '--group', group_id]);
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stderr).toMatch(/^error: confirmation_required: /);
    expect((await cli.cccc(['group', 'delete', '--group', group_id, '--confirm'])).code).toBe(0);
    expect((await cli.cccc(['group', 'show', group_id])).stderr).toMatch(/^error: group_not_found: /);
  });

  it('attaches a directory (relative paths resolve in the caller cwd) and uses it as scope', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cccc-cli-scope-'));
    try {
      const attached = await cli.json(['attach', dir]);
      expect(attached).toMatchObject({ group_id: expect.stringMatching(/^g_/), scope_key: expect.any(String) });
      const text = await cli.cccc(['attach', dir, '--group', attached.group_id]);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain(`attached ${dir} to ${attached.group_id}`);
      const used = await cli.json(['group', 'use', dir, '--group', attached.group_id]);
      expect(used).toMatchObject({ group_id: attached.group_id, active_scope_key: attached.scope_key });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('attach makes the attached group active, so the next command needs no --group', async () => {
    const first = mkdtempSync(join(tmpdir(), 'cccc-cli-scope-'));
    const second = mkdtempSync(join(tmpdir(), 'cccc-cli-scope-'));
    try {
      const text = await cli.cccc(['attach', first]);
      expect(text.code).toBe(0);
      const groupId = (await cli.json(['use'])).active_group_id;
      expect(groupId).toMatch(/^g_/);
      expect(text.stdout).toContain(`active group: ${groupId}`);
      const added = await cli.cccc(['actor', 'add', 'lead', '--runtime', 'custom', '--command', 'true']);
      expect(added.code).toBe(0);
      expect((await cli.json(['actor', 'list', '--group', groupId])).actors.map((a: { id: string }) => a.id)).toEqual(['lead']);
      // Another directory is another group; attaching it (also with --json) moves the active group.
      const other = await cli.json(['attach', second]);
      expect(other.group_id).not.toBe(groupId);
      expect((await cli.json(['use'])).active_group_id).toBe(other.group_id);
    } finally {
      rmSync(first, { recursive: true, force: true });
      rmSync(second, { recursive: true, force: true });
    }
  });

  it('attaching a missing directory prints path_not_found, exits 1 and leaves the active group alone', async () => {
    const res = await cli.cccc(['attach', join(tmpdir(), 'cccc-cli-does-not-exist-' + process.pid)]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error: path_not_found: /);
    expect((await cli.json(['use'])).active_group_id).toBeNull();
    expect(res.stdout).toBe('');
  });
});
