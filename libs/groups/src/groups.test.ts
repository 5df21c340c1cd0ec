import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readActiveGroupId, writeActiveGroupId } from './active-group.js';
import { loadGroup } from './group-store.js';
import { groupSettings, updateGroupSettings } from './group-settings.js';
import { createGroup, deleteGroup, listGroups, reconcileRegistry, setGroupState, showGroup, updateGroupMeta } from './groups.js';
import { groupIdForScope, GROUP_ID_PATTERN, scopeKeyFor } from './ids.js';
import { readRegistry } from './registry-store.js';
import { activeScopeRoot, attachScope, detachScope, useScope } from './scope-ops.js';
import { detectScope } from './scope.js';
import { makeTempHome } from './testing.js';
import { readYamlDocument } from './yaml-file.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function tmpDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'cccc-scope-'));
  dirs.push(d);
  return d;
}
function gitRepo(origin?: string): string {
  const root = tmpDir();
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, '.git', 'config'), origin ? `[remote "origin"]\n\turl = ${origin}\n` : '[core]\n');
  return root;
}

describe('groups', () => {
  it('create → show → update → list → delete', async () => {
    using home = makeTempHome();
    const g = await createGroup(home.layout, { title: '  Team  ', topic: 'ship it' });
    expect(g.group_id).toMatch(GROUP_ID_PATTERN);
    expect(g).toMatchObject({ title: 'Team', topic: 'ship it', state: 'active', running: false, scopes: [], actors: [] });
    expect(g.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(readRegistry(home.layout).groups[g.group_id]).toMatchObject({ title: 'Team', path: home.layout.groupDir(g.group_id) });
    expect((await createGroup(home.layout)).title).toBe('working-group');
    await expect(createGroup(home.layout, { groupId: g.group_id })).rejects.toMatchObject({ code: 'group_exists' });

    const { group, patch } = await updateGroupMeta(home.layout, g.group_id, { title: 'Renamed' });
    expect(patch).toEqual({ title: 'Renamed' });
    expect(group.title).toBe('Renamed');
    expect(readRegistry(home.layout).groups[g.group_id]!.title).toBe('Renamed');
    await expect(updateGroupMeta(home.layout, g.group_id, { title: ' ' })).rejects.toMatchObject({ code: 'invalid_patch' });

    expect(listGroups(home.layout).map((s) => s.group_id)).toContain(g.group_id);
    expect(showGroup(home.layout, g.group_id).group.title).toBe('Renamed');

    writeActiveGroupId(home.layout, g.group_id);
    expect(readActiveGroupId(home.layout)).toBe(g.group_id);
    await deleteGroup(home.layout, g.group_id);
    expect(existsSync(home.layout.groupDir(g.group_id))).toBe(false);
    expect(readRegistry(home.layout).groups[g.group_id]).toBeUndefined();
    expect(readActiveGroupId(home.layout)).toBe('');
    await expect(deleteGroup(home.layout, g.group_id)).rejects.toMatchObject({ code: 'group_not_found' });
  });

  it('set state validates the value', async () => {
    using home = makeTempHome();
    const g = await createGroup(home.layout);
    for (const state of ['idle', 'paused', 'stopped', 'active'] as const) {
      const r = await setGroupState(home.layout, g.group_id, state);
      expect(r.new_state).toBe(state);
    }
    await expect(setGroupState(home.layout, g.group_id, 'sleeping')).rejects.toMatchObject({ code: 'invalid_state' });
  });

  it('settings: flat, dotted and nested keys; validation; defaults', async () => {
    using home = makeTempHome();
    const g = await createGroup(home.layout);
    expect(groupSettings(g)).toMatchObject({ default_send_to: 'foreman', mail_notice_after_seconds: 1800, terminal_transcript_visibility: 'foreman', root_body_policy: 'off' });
    const { settings } = await updateGroupSettings(home.layout, g.group_id, {
      default_send_to: 'broadcast',
      'messaging.root_body_policy': 'summary',
      delivery: { reply_notice_after_seconds: 0 },
      terminal_transcript_visibility: 'all',
      keepalive_delay_seconds: 60,
    });
    expect(settings).toMatchObject({ default_send_to: 'broadcast', root_body_policy: 'summary', reply_notice_after_seconds: 0, terminal_transcript_visibility: 'all', keepalive_delay_seconds: 60 });
    const raw = readYamlDocument(home.layout.groupYamlPath(g.group_id)).toJS();
    expect(raw.messaging).toEqual({ default_send_to: 'broadcast', root_body_policy: 'summary' });
    expect(raw.terminal_transcript).toEqual({ visibility: 'all' });
    expect(raw.automation.keepalive_delay_seconds).toBe(60);
    expect(raw.automation.rules[0].id).toBe('standup');
    for (const bad of [{ default_send_to: 'everyone' }, { mail_notice_after_seconds: -1 }, { mail_notice_after_seconds: 1.5 }, { nope: 1 }, { delivery: { nope: 1 } }, {}, { terminal_transcript_notify_tail: 'yes' }, { constructor: 1 }, { toString: 'x' }, JSON.parse('{"__proto__": {"x": 1}}')]) {
      await expect(updateGroupSettings(home.layout, g.group_id, bad)).rejects.toMatchObject({ code: 'invalid_patch' });
    }
  });

  it('registry_reconcile reports missing and corrupt groups and removes missing ones on request', async () => {
    using home = makeTempHome();
    const keep = await createGroup(home.layout);
    const gone = await createGroup(home.layout);
    const bad = await createGroup(home.layout);
    const dir = tmpDir();
    await attachScope(home.layout, { path: dir, groupId: gone.group_id });
    rmSync(home.layout.groupDir(gone.group_id), { recursive: true });
    writeFileSync(home.layout.groupYamlPath(bad.group_id), ': : :\n');
    const dry = await reconcileRegistry(home.layout);
    expect(dry).toMatchObject({ dry_run: true, scanned_groups: 3, missing_group_ids: [gone.group_id], corrupt_group_ids: [bad.group_id], removed_group_ids: [] });
    const wet = await reconcileRegistry(home.layout, { removeMissing: true });
    expect(wet.removed_group_ids).toEqual([gone.group_id]);
    expect(wet.removed_default_scope_keys).toEqual([detectScope(dir).scope_key]);
    expect(Object.keys(readRegistry(home.layout).groups).sort()).toEqual([keep.group_id, bad.group_id].sort());
    expect(listGroups(home.layout).map((g) => g.group_id)).toEqual([keep.group_id]);
  });

  it('show redacts secret-looking values', async () => {
    using home = makeTempHome();
    const g = await createGroup(home.layout);
    const path = home.layout.groupYamlPath(g.group_id);
    writeFileSync(path, readFileSync(path, 'utf8') + 'im:\n  platform: telegram\n  bot_token: "123:abc"\n  token_env: ""\n');
    const shown = showGroup(home.layout, g.group_id).group as { im: Record<string, string> };
    expect(shown.im).toEqual({ platform: 'telegram', bot_token: '******', token_env: '' });
  });
});

describe('scopes and attach', () => {
  it('derives scope keys from the normalised origin, else the repo root path', () => {
    const ssh = gitRepo('git@github.com:me/proj.git');
    const https = gitRepo('https://github.com/me/proj.git');
    const plain = gitRepo();
    const dir = tmpDir();
    expect(detectScope(ssh)).toMatchObject({ scope_key: scopeKeyFor('https://github.com/me/proj'), git_remote: 'https://github.com/me/proj', url: ssh });
    expect(detectScope(https).scope_key).toBe(detectScope(ssh).scope_key);
    mkdirSync(join(plain, 'src', 'deep'), { recursive: true });
    expect(detectScope(join(plain, 'src', 'deep'))).toMatchObject({ url: plain, scope_key: scopeKeyFor(plain), git_remote: '' });
    expect(detectScope(dir)).toMatchObject({ url: dir, label: dir.split('/').at(-1) });
  });

  it('attach of a missing directory is path_not_found; a file is invalid_path', async () => {
    using home = makeTempHome();
    const dir = tmpDir();
    await expect(attachScope(home.layout, { path: join(dir, 'missing') })).rejects.toMatchObject({ code: 'path_not_found' });
    writeFileSync(join(dir, 'f'), 'x');
    await expect(attachScope(home.layout, { path: join(dir, 'f') })).rejects.toMatchObject({ code: 'invalid_path' });
    await expect(attachScope(home.layout, { path: dir, groupId: 'g_ffffffffffff' })).rejects.toMatchObject({ code: 'group_not_found' });
    expect(readRegistry(home.layout).groups).toEqual({});
  });

  it('attach without a group auto-creates one with the deterministic id, then reuses it', async () => {
    using home = makeTempHome();
    const repo = gitRepo('git@example.com:team/app.git');
    const first = await attachScope(home.layout, { path: repo });
    expect(first.created).toBe(true);
    expect(first.group_id).toBe(groupIdForScope('https://example.com/team/app'));
    expect(first.title).toBe(repo.split('/').at(-1));
    const second = await attachScope(home.layout, { path: repo });
    expect(second).toMatchObject({ created: false, group_id: first.group_id, scope_key: first.scope_key });
    const group = loadGroup(home.layout, first.group_id);
    expect(group.scopes).toHaveLength(1);
    expect(group.active_scope_key).toBe(first.scope_key);
    const registry = readRegistry(home.layout);
    expect(registry.defaults[first.scope_key]).toBe(first.group_id);
    expect(registry.groups[first.group_id]!.default_scope_key).toBe(first.scope_key);
    const scopeDoc = readYamlDocument(home.layout.scopeYamlPath(first.group_id, first.scope_key)).toJS();
    expect(scopeDoc).toMatchObject({ v: 1, scope_key: first.scope_key, url: repo, git_remote: 'https://example.com/team/app' });
  });

  it('attach resolves symlinks; use switches scopes; detach falls back', async () => {
    using home = makeTempHome();
    const g = await createGroup(home.layout);
    const a = tmpDir();
    const b = tmpDir();
    const link = join(tmpDir(), 'link');
    symlinkSync(a, link);
    const viaLink = await attachScope(home.layout, { path: link, groupId: g.group_id });
    expect(viaLink.scope.url).toBe(a);
    const sb = await attachScope(home.layout, { path: b, groupId: g.group_id });
    expect(loadGroup(home.layout, g.group_id).active_scope_key).toBe(sb.scope_key);
    const used = await useScope(home.layout, g.group_id, a);
    expect(used.active_scope_key).toBe(viaLink.scope_key);
    expect(activeScopeRoot(used.group)).toBe(a);
    await expect(useScope(home.layout, g.group_id, tmpDir())).rejects.toMatchObject({ code: 'scope_not_attached' });
    const { group } = await detachScope(home.layout, g.group_id, viaLink.scope_key);
    expect(group.active_scope_key).toBe(sb.scope_key);
    expect(readRegistry(home.layout).defaults[viaLink.scope_key]).toBeUndefined();
    await expect(detachScope(home.layout, g.group_id, viaLink.scope_key)).rejects.toMatchObject({ code: 'scope_not_attached' });
    const last = await detachScope(home.layout, g.group_id, sb.scope_key);
    expect(last.group.active_scope_key).toBe('');
    expect(() => activeScopeRoot(last.group)).toThrowError(expect.objectContaining({ code: 'no_active_scope' }));
  });
});
