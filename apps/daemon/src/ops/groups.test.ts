import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupWithTeam, DaemonFixture } from '../../test-support/daemon-fixture.js';

describe('group and scope ops over the socket', () => {
  let d: DaemonFixture;
  beforeAll(async () => {
    d = await DaemonFixture.start();
  });
  afterAll(async () => {
    await d?.[Symbol.asyncDispose]();
  });

  it('group_create appends group.create and groups lists it', async () => {
    const created = await d.call('group_create', { title: 'Alpha', topic: 'first', by: '  ' });
    expect(created.group_id).toMatch(/^g_[0-9a-f]{12}$/);
    expect(created.title).toBe('Alpha');
    expect(created.event).toMatchObject({ kind: 'group.create', by: 'user', data: { title: 'Alpha', topic: 'first' } });
    expect(d.ledgerEvents(created.group_id).map((e) => e.kind)).toEqual(['group.create']);
    const { groups } = await d.call('groups', {});
    expect(groups.find((g) => g.group_id === created.group_id)).toMatchObject({ title: 'Alpha', running: false, state: 'active' });
  });

  it('group_show, actor_list and groups answer from the parsed group.yaml cache, revalidated by a stat', async () => {
    const gid = await groupWithTeam(d);
    const path = join(d.home, 'groups', gid, 'group.yaml');
    const second = 1_800_000_000; // whole seconds, so the same mtime can be set again exactly
    utimesSync(path, second, second);
    const read = async () => ({
      show: (await d.call('group_show', { group_id: gid })).group.title,
      list: (await d.call('actor_list', { group_id: gid })).actors.map((a) => a.id),
      groups: (await d.call('groups', {})).groups.find((g) => g.group_id === gid)?.title,
    });
    expect(await read()).toEqual({ show: 'team', list: ['lead', 'p1'], groups: 'team' });

    // Rewritten in place (same inode) with the same size and mtime: the stat cannot tell, so the
    // answers still come from the cached parse, which shows these ops read through the cache.
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace('title: team', 'title: TEAM').replace('id: p1', 'id: q1'));
    utimesSync(path, second, second);
    expect(await read()).toEqual({ show: 'team', list: ['lead', 'p1'], groups: 'team' });

    // Any edit that moves the mtime (every real one) is seen by the very next read.
    utimesSync(path, second + 1, second + 1);
    expect(await read()).toEqual({ show: 'TEAM', list: ['lead', 'q1'], groups: 'TEAM' });
  });

  it('group_create is user only', async () => {
    expect(await d.codeOf('group_create', { title: 'x', by: 'lead' })).toBe('permission_denied');
  });

  it('group_show returns the redacted document; unknown group is group_not_found; missing id is missing_group_id', async () => {
    const gid = await groupWithTeam(d);
    const { group } = await d.call('group_show', { group_id: gid, detail: 'full' });
    expect(group).toMatchObject({ group_id: gid, title: 'team' });
    expect(group.actors?.map((a) => a.id)).toEqual(['lead', 'p1']);
    expect(await d.codeOf('group_show', { group_id: 'g_000000000000' })).toBe('group_not_found');
    expect(await d.codeOf('group_show', {})).toBe('missing_group_id');
  });

  it('group_update: user and foreman may, a peer may not; event carries the patch', async () => {
    const gid = await groupWithTeam(d);
    const r = await d.call('group_update', { group_id: gid, patch: { title: 'Renamed' } });
    expect(r.group.title).toBe('Renamed');
    expect(r.event).toMatchObject({ kind: 'group.update', by: 'user', data: { patch: { title: 'Renamed' } } });
    const f = await d.call('group_update', { group_id: gid, by: 'lead', patch: { topic: 'by foreman' } });
    expect(f.event).toMatchObject({ by: 'lead', data: { patch: { topic: 'by foreman' } } });

    const before = d.snapshot(gid);
    expect(await d.codeOf('group_update', { group_id: gid, by: 'p1', patch: { title: 'nope' } })).toBe('permission_denied');
    expect(await d.codeOf('group_update', { group_id: gid, by: 'stranger', patch: { title: 'nope' } })).toBe('permission_denied');
    expect(await d.codeOf('group_update', { group_id: gid, patch: { title: '   ' } })).toBe('invalid_patch');
    expect(await d.codeOf('group_update', { group_id: gid, patch: {} })).toBe('invalid_patch');
    expect(await d.codeOf('group_update', { group_id: gid, patch: { title: 5 } })).toBe('invalid_request');
    expect(d.snapshot(gid)).toEqual(before);
    const registry = JSON.parse(readFileSync(join(d.home, 'registry.json'), 'utf8'));
    expect(registry.groups[gid]).toMatchObject({ title: 'Renamed', topic: 'by foreman' });
  });

  it('attach: missing directory is path_not_found; attach to a group appends group.attach; group_use and group_detach_scope', async () => {
    const gid = await groupWithTeam(d);
    expect(await d.codeOf('attach', { path: join(d.home, 'no-such-dir'), group_id: gid })).toBe('path_not_found');
    expect(d.ledgerEvents(gid).some((e) => e.kind === 'group.attach')).toBe(false);

    const one = d.projectDir('one');
    const two = d.projectDir('two');
    const a = await d.call('attach', { path: one, group_id: gid });
    expect(a).toMatchObject({ group_id: gid, scope_key: expect.stringMatching(/^s_[0-9a-f]{12}$/) });
    const b = await d.call('attach', { path: two, group_id: gid, by: 'lead' });
    const attachEvents = d.ledgerEvents(gid).filter((e) => e.kind === 'group.attach');
    expect(attachEvents.map((e) => e.data)).toEqual([
      { url: one, label: 'one', git_remote: '' },
      { url: two, label: 'two', git_remote: '' },
    ]);
    expect(attachEvents[0]!.scope_key).toBe(a.scope_key);

    const before = d.snapshot(gid);
    expect(await d.codeOf('attach', { path: one, group_id: gid, by: 'p1' })).toBe('permission_denied');
    expect(await d.codeOf('group_use', { group_id: gid, path: one, by: 'p1' })).toBe('permission_denied');
    expect(await d.codeOf('group_use', { group_id: gid, path: d.projectDir('three') })).toBe('scope_not_attached');
    expect(await d.codeOf('group_detach_scope', { group_id: gid, scope_key: a.scope_key, by: 'p1' })).toBe('permission_denied');
    expect(await d.codeOf('group_detach_scope', { group_id: gid, scope_key: 's_000000000000' })).toBe('scope_not_attached');
    expect(d.snapshot(gid)).toEqual(before);

    const used = await d.call('group_use', { group_id: gid, path: one, by: 'lead' });
    expect(used).toMatchObject({ group_id: gid, active_scope_key: a.scope_key });
    expect(used.event).toMatchObject({ kind: 'group.set_active_scope', scope_key: a.scope_key, by: 'lead', data: { path: one } });

    const detached = await d.call('group_detach_scope', { group_id: gid, scope_key: a.scope_key });
    expect(detached.event).toMatchObject({ kind: 'group.detach_scope', data: { scope_key: a.scope_key } });
    const { group } = await d.call('group_show', { group_id: gid });
    expect(group.scopes?.map((s) => s.scope_key)).toEqual([b.scope_key]);
    expect(group.active_scope_key).toBe(b.scope_key);
  });

  it('attach without group_id creates the scope group (group.create then group.attach), then reuses it; user only', async () => {
    const dir = d.projectDir('auto');
    expect(await d.codeOf('attach', { path: dir, by: 'lead' })).toBe('permission_denied');
    const first = await d.call('attach', { path: dir });
    expect(first.group_id).toMatch(/^g_[0-9a-f]{12}$/);
    expect(first.title).toBe('auto');
    expect(d.ledgerEvents(first.group_id).map((e) => e.kind)).toEqual(['group.create', 'group.attach']);
    const again = await d.call('attach', { path: dir });
    expect(again).toMatchObject({ group_id: first.group_id, scope_key: first.scope_key });
    expect(d.ledgerEvents(first.group_id).map((e) => e.kind)).toEqual(['group.create', 'group.attach', 'group.attach']);
  });

  it('group_set_state: active|idle|paused only; event has old and new state', async () => {
    const gid = await groupWithTeam(d);
    const r = await d.call('group_set_state', { group_id: gid, state: 'paused', by: 'lead' });
    expect(r).toMatchObject({ group_id: gid, state: 'paused' });
    expect(r.event).toMatchObject({ kind: 'group.set_state', data: { old_state: 'active', new_state: 'paused' } });
    const before = d.snapshot(gid);
    expect(await d.codeOf('group_set_state', { group_id: gid, state: 'stopped' })).toBe('invalid_request');
    expect(await d.codeOf('group_set_state', { group_id: gid, state: 'idle', by: 'p1' })).toBe('permission_denied');
    expect(d.snapshot(gid)).toEqual(before);
  });

  it('group_settings_update validates the patch and records it', async () => {
    const gid = await groupWithTeam(d);
    const r = await d.call('group_settings_update', {
      group_id: gid,
      by: 'lead',
      patch: { default_send_to: 'broadcast', mail_notice_after_seconds: 0, messaging: { root_body_policy: 'summary' } },
    });
    expect(r.settings).toMatchObject({ default_send_to: 'broadcast', mail_notice_after_seconds: 0, root_body_policy: 'summary' });
    expect(r.event).toMatchObject({ kind: 'group.settings_update', data: { patch: { default_send_to: 'broadcast' } } });
    const before = d.snapshot(gid);
    expect(await d.codeOf('group_settings_update', { group_id: gid, patch: { bogus: 1 } })).toBe('invalid_patch');
    expect(await d.codeOf('group_settings_update', { group_id: gid, patch: { mail_notice_after_seconds: -1 } })).toBe('invalid_patch');
    expect(await d.codeOf('group_settings_update', { group_id: gid, by: 'p1', patch: { default_send_to: 'foreman' } })).toBe(
      'permission_denied',
    );
    expect(d.snapshot(gid)).toEqual(before);
  });

  it('group_delete: peer denied; foreman allowed; files and registry entry gone', async () => {
    const gid = await groupWithTeam(d);
    await d.call('actor_env_private_update', { group_id: gid, actor_id: 'p1', set: { TOKEN: 'zz-delete-secret' } });
    const before = d.snapshot(gid);
    expect(await d.codeOf('group_delete', { group_id: gid, by: 'p1' })).toBe('permission_denied');
    expect(d.snapshot(gid)).toEqual(before);
    expect(await d.call('group_delete', { group_id: gid, by: 'lead' })).toEqual({ group_id: gid });
    expect(existsSync(join(d.home, 'groups', gid))).toBe(false);
    expect(existsSync(join(d.home, 'state', 'secrets', 'actors', gid))).toBe(false);
    const { groups } = await d.call('groups', {});
    expect(groups.some((g) => g.group_id === gid)).toBe(false);
    expect(await d.codeOf('group_show', { group_id: gid })).toBe('group_not_found');
    expect(await d.codeOf('group_delete', { group_id: gid })).toBe('group_not_found');
  });

  it('registry_reconcile reports and removes entries whose group is gone', async () => {
    const { group_id } = await d.call('group_create', { title: 'doomed' });
    const { rmSync } = await import('node:fs');
    rmSync(join(d.home, 'groups', group_id), { recursive: true, force: true });
    const dry = await d.call('registry_reconcile', {});
    expect(dry).toMatchObject({ dry_run: true, removed_group_ids: [] });
    expect(dry.missing_group_ids).toContain(group_id);
    const wet = await d.call('registry_reconcile', { remove_missing: true });
    expect(wet.dry_run).toBe(false);
    expect(wet.removed_group_ids).toContain(group_id);
    expect((await d.call('registry_reconcile', {})).missing_group_ids).not.toContain(group_id);
  });
});
