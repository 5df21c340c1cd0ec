import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_SKILLSMP_KEY, startFakeSkillSources, type FakeSkillSources } from '@cccc/capabilities/testing';
import { groupWithTeam, DaemonFixture } from '../../test-support/daemon-fixture.js';

/** A TCP port that accepts connections and never answers: a remote source that hangs. */
async function blackHole(): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const sockets: Socket[] = [];
  const server = createServer((s) => sockets.push(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    server,
    url: `http://127.0.0.1:${port}/v0/servers`,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('capability ops over the socket', () => {
  let d: DaemonFixture;
  let hole: Awaited<ReturnType<typeof blackHole>>;
  let gid: string;
  const stateFile = () => join(d.home, 'state', 'capabilities', 'state.json');
  const fileText = (p: string) => (existsSync(p) ? readFileSync(p, 'utf8') : '');

  beforeAll(async () => {
    hole = await blackHole();
    d = await DaemonFixture.start({
      env: {
        CCCC_CAPABILITY_MCP_REGISTRY_BASE: hole.url,
        CCCC_CAPABILITY_REMOTE_TIMEOUT_MS: '300',
        CCCC_CAPABILITY_MAX_ENABLED_PER_ACTOR: '2',
        // The remote skill sources are tested in their own block below.
        CCCC_CAPABILITY_SOURCE_SKILLSMP_REMOTE_ENABLED: '0',
        CCCC_CAPABILITY_SOURCE_CLAWHUB_REMOTE_ENABLED: '0',
        CCCC_CAPABILITY_SOURCE_OPENCLAW_SKILLS_REMOTE_ENABLED: '0',
        CCCC_CAPABILITY_SOURCE_CLAWSKILLS_REMOTE_ENABLED: '0',
      },
    });
    gid = await groupWithTeam(d);
    await d.call('actor_add', { group_id: gid, actor_id: 'p2', runtime: 'custom', command: ['cat'] });
  });
  afterAll(async () => {
    await d?.[Symbol.asyncDispose]();
    await hole?.close();
  });

  it('capability_overview lists built-in packs and curated records with the allowlist revision', async () => {
    const overview = await d.call('capability_overview', {});
    expect(overview.items.map((i) => i.capability_id)).toEqual(expect.arrayContaining(['pack:group-runtime', 'pack:diagnostics', 'skill:cccc:code-review']));
    expect(overview.allowlist_revision).toBe((await d.call('capability_allowlist_get', {})).revision);
    expect((await d.call('capability_overview', { query: 'terminal' })).items.map((i) => i.capability_id)).toEqual(['pack:diagnostics']);
  });

  it('capability_enable / capability_state: a pack adds its tools for one actor; mcp_catalog view agrees', async () => {
    const before = await d.call('capability_state', { group_id: gid, actor_id: 'p1', view: 'mcp_catalog' });
    expect(before.visible_tools).not.toContain('cccc_terminal');
    const lead = await d.call('capability_state', { group_id: gid, actor_id: 'lead' });
    expect(lead).toMatchObject({ is_foreman: true });
    expect(lead.visible_tools).toEqual(expect.arrayContaining(['cccc_group', 'cccc_actor']));

    const on = await d.call('capability_enable', { group_id: gid, capability_id: 'pack:diagnostics', scope: 'actor', by: 'p1' });
    expect(on).toMatchObject({ actor_id: 'p1', state: 'activation_pending', refresh_required: true });
    const after = await d.call('capability_state', { group_id: gid, by: 'p1', view: 'mcp_catalog' });
    expect(after.visible_tools).toContain('cccc_terminal');
    expect(after.enabled_capabilities).toEqual(['pack:diagnostics']);
    const off = await d.call('capability_enable', { group_id: gid, capability_id: 'pack:diagnostics', scope: 'actor', enabled: false, by: 'p1' });
    expect(off).toMatchObject({ state: 'disabled', removed_binding_count: 1 });
  });

  it('capability_state view=mcp_catalog answers while the group write lock is held', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const lock = d.services.groupLocks.run(gid, () => held);
    try {
      const st = await Promise.race([
        d.call('capability_state', { group_id: gid, actor_id: 'p1', view: 'mcp_catalog' }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('mcp_catalog waited on the group lock')), 3000)),
      ]);
      expect(st.actor_id).toBe('p1');
    } finally {
      release();
      await lock;
    }
  });

  it('capability_enable errors and quota: nothing is written on a refusal', async () => {
    const before = fileText(stateFile());
    expect(await d.codeOf('capability_enable', { capability_id: 'pack:diagnostics' })).toBe('missing_group_id');
    expect(await d.codeOf('capability_enable', { group_id: gid })).toBe('invalid_request');
    expect(await d.codeOf('capability_enable', { group_id: 'g_000000000000', capability_id: 'pack:diagnostics' })).toBe('group_not_found');
    expect(await d.codeOf('capability_enable', { group_id: gid, capability_id: 'pack:nope' })).toBe('capability_not_found');
    expect(await d.codeOf('capability_enable', { group_id: gid, capability_id: 'pack:diagnostics', actor_id: 'ghost' })).toBe('actor_not_found');
    expect(await d.codeOf('capability_enable', { group_id: gid, capability_id: 'pack:diagnostics', scope: 'group', by: 'p1' })).toBe('permission_denied');
    expect(await d.codeOf('capability_enable', { group_id: gid, capability_id: 'pack:diagnostics', scope: 'everywhere' })).toBe('invalid_request');
    expect(fileText(stateFile())).toBe(before);

    await d.call('capability_enable', { group_id: gid, capability_id: 'pack:diagnostics', scope: 'actor', actor_id: 'p1' });
    await d.call('capability_enable', { group_id: gid, capability_id: 'pack:group-runtime', scope: 'session', actor_id: 'p1', ttl_seconds: 600 });
    const third = await d.call('capability_enable', { group_id: gid, capability_id: 'mcp:npm:@modelcontextprotocol/server-everything', scope: 'actor', actor_id: 'p1' });
    expect(third).toMatchObject({ enabled: false, state: 'failed', reason: 'quota_exceeded:max_enabled_per_actor' });
    await d.call('capability_enable', { group_id: gid, capability_id: 'pack:diagnostics', scope: 'actor', actor_id: 'p1', enabled: false });
    await d.call('capability_enable', { group_id: gid, capability_id: 'pack:group-runtime', scope: 'session', actor_id: 'p1', enabled: false });
  });

  it('capability_block: group block by the foreman revokes bindings; global only by the user; TTL expiry field', async () => {
    await d.call('capability_enable', { group_id: gid, capability_id: 'pack:diagnostics', scope: 'group' });
    expect(await d.codeOf('capability_block', { group_id: gid, capability_id: 'pack:diagnostics', by: 'p1' })).toBe('permission_denied');
    expect(await d.codeOf('capability_block', { group_id: gid, capability_id: 'pack:diagnostics', scope: 'global', by: 'lead' })).toBe('permission_denied');
    expect(await d.codeOf('capability_block', { group_id: gid, capability_id: 'pack:zzz' })).toBe('capability_not_found');
    const blocked = await d.call('capability_block', { group_id: gid, capability_id: 'pack:diagnostics', by: 'lead', reason: 'noise', ttl_seconds: 600 });
    expect(blocked).toMatchObject({ blocked: true, state: 'blocked', removed_bindings: 1, refresh_required: true, block: { by: 'lead', reason: 'noise' } });
    expect(blocked.block?.expires_at).toBeDefined();
    const st = await d.call('capability_state', { group_id: gid, actor_id: 'p2' });
    expect(st.visible_tools).not.toContain('cccc_terminal');
    expect(st.blocked_capabilities).toEqual([expect.objectContaining({ capability_id: 'pack:diagnostics', scope: 'group' })]);
    const global = await d.call('capability_block', { group_id: gid, capability_id: 'pack:group-runtime', scope: 'global' });
    expect(global.scope).toBe('global');
    expect((await d.call('capability_state', { group_id: gid, actor_id: 'lead' })).visible_tools).not.toContain('cccc_group');
    expect((await d.call('capability_overview', {})).blocked_capabilities).toEqual([expect.objectContaining({ capability_id: 'pack:group-runtime', scope: 'global' })]);
    await d.call('capability_block', { group_id: gid, capability_id: 'pack:group-runtime', scope: 'global', blocked: false });
    await d.call('capability_block', { group_id: gid, capability_id: 'pack:diagnostics', blocked: false });
    expect((await d.call('capability_state', { group_id: gid, actor_id: 'lead' })).visible_tools).toContain('cccc_group');
  });

  it('capability_search: local results come back; the hanging registry is cut off and reported', async () => {
    const started = Date.now();
    const found = await d.call('capability_search', { group_id: gid, query: 'review', by: 'p1' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(found.items.map((i) => i.capability_id)).toEqual(['skill:cccc:code-review']);
    expect(found.search_diagnostics).toMatchObject({ remote_augmented: false, remote_added: 0, remote_error: 'mcp_registry_official:timeout' });
    expect(found.actor_id).toBe('p1');
    expect(await d.codeOf('capability_search', { group_id: gid, by: 'stranger' })).toBe('permission_denied');
    expect(await d.codeOf('capability_search', {})).toBe('missing_group_id');
  });

  it('capability_visibility hides a capability on a menu; peers only for themselves', async () => {
    const hid = await d.call('capability_visibility', { group_id: gid, capability_id: 'skill:cccc:handoff', hidden: true, by: 'p1' });
    expect(hid).toMatchObject({ actor_id: 'p1', state: 'hidden', actor_hidden_capabilities: ['skill:cccc:handoff'] });
    expect(await d.codeOf('capability_visibility', { group_id: gid, capability_id: 'x', hidden: true, actor_id: 'lead', by: 'p1' })).toBe('permission_denied');
    expect(await d.codeOf('capability_visibility', { group_id: gid, capability_id: 'x' })).toBe('invalid_request');
    await d.call('capability_visibility', { group_id: gid, capability_id: 'skill:cccc:handoff', hidden: false, by: 'p1' });
  });

  it('capability_import: dry run, create with enable, self-proposed rules; capability_state shows the capsule', async () => {
    const record = { capability_id: 'skill:manual:triage', kind: 'skill' as const, name: 'Triage', capsule_text: 'Sort by severity.' };
    expect(await d.call('capability_import', { group_id: gid, record, dry_run: true })).toMatchObject({ dry_run: true, imported: false });
    const created = await d.call('capability_import', { group_id: gid, record, enable_after_import: true, scope: 'actor', actor_id: 'p2', by: 'p2' });
    expect(created).toMatchObject({ import_action: 'created', active_after_import: true, state: 'runnable' });
    const st = await d.call('capability_state', { group_id: gid, actor_id: 'p2', capability_id: 'skill:manual:triage' });
    expect(st.active_capsule_skills).toEqual([expect.objectContaining({ capability_id: 'skill:manual:triage', capsule_text: 'Sort by severity.' })]);
    expect(st.capability_usage).toMatchObject({ used: true, actor_enabled: [{ actor_id: 'p2' }] });
    expect(await d.codeOf('capability_import', { group_id: gid, record: { ...record, capability_id: 'mcp:wrong' } })).toBe('invalid_request');
    expect(await d.codeOf('capability_import', { group_id: gid })).toBe('invalid_request');
    const secret = 'sk-live-DO-NOT-LEAK-4242';
    const withEnv = await d.call('capability_import', {
      group_id: gid,
      record: { capability_id: 'mcp:manual:secretive', kind: 'mcp_toolpack', install_mode: 'command', install_spec: { command: ['node'], env: { API_TOKEN: secret } } },
    });
    expect(JSON.stringify(withEnv)).not.toContain(secret);
    expect(withEnv.record).toMatchObject({ install_spec: { env_keys: ['API_TOKEN'] } });
    expect(JSON.stringify(await d.call('capability_overview', {}))).not.toContain(secret);
    expect(d.publicText()).not.toContain(secret);
  });

  it('capability_allowlist_get/validate/update/reset with their error codes', async () => {
    const got = await d.call('capability_allowlist_get', {});
    expect(got).toMatchObject({ overlay: {}, overlay_error: '', external_capability_safety_mode: 'normal' });
    const patch = { capability_overrides: [{ capability_id: 'skill:cccc:handoff', level: 'indexed' }] };
    const valid = await d.call('capability_allowlist_validate', { patch });
    expect(valid.valid).toBe(true);
    expect((await d.call('capability_allowlist_validate', { mode: 'replace' })).valid).toBe(false);
    expect(await d.codeOf('capability_allowlist_update', { by: 'lead', patch })).toBe('permission_denied');
    expect(await d.codeOf('capability_allowlist_update', { patch, expected_revision: 'al_0000000000000000' })).toBe('allowlist_revision_mismatch');
    expect(await d.codeOf('capability_allowlist_update', { patch: { defaults: { source_level: { x: 'sometimes' } } } })).toBe('allowlist_validation_failed');
    const overlayPath = join(d.home, 'config', 'capability-allowlist.user.yaml');
    expect(existsSync(overlayPath)).toBe(false);
    const updated = await d.call('capability_allowlist_update', { patch, expected_revision: got.revision, by: 'user' });
    expect(updated.revision).toBe(valid.revision);
    expect(readFileSync(overlayPath, 'utf8')).toContain('skill:cccc:handoff');
    expect(await d.codeOf('capability_allowlist_reset', { by: 'p1' })).toBe('permission_denied');
    const reset = await d.call('capability_allowlist_reset', {});
    expect(reset).toMatchObject({ reset: true, removed_overlay_file: true, revision: got.revision });
  });

  it('capability_install_target: an id, a local SKILL.md; unreadable targets answer install_target_invalid', async () => {
    const byId = await d.call('capability_install_target', { group_id: gid, target: 'skill:cccc:handoff', actor_id: 'p1' });
    expect(byId).toMatchObject({ target_kind: 'capability_id', enabled_capability_ids: ['skill:cccc:handoff'], state: 'ready' });
    const dir = join(d.home, 'my-skill');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), '---\nname: Release notes\ndescription: Write them\n---\nList user-visible changes.\n');
    const local = await d.call('capability_install_target', { group_id: gid, target: dir, actor_id: 'p1' });
    expect(local).toMatchObject({ target_kind: 'local_path', installed_capability_ids: ['skill:local:release-notes'], state: 'ready' });
    expect(await d.codeOf('capability_install_target', { group_id: gid, target: join(d.home, 'nothing-here') })).toBe('install_target_invalid');
    expect(await d.codeOf('capability_install_target', { group_id: gid, target: 'skill:missing' })).toBe('capability_not_found');
    expect(await d.codeOf('capability_install_target', { group_id: gid, target: 'pack:diagnostics', actor_id: 'lead', by: 'p1' })).toBe('permission_denied');
  });

  it('capability_uninstall also drops the group\'s actor autoload references', async () => {
    await d.call('actor_add', { group_id: gid, actor_id: 'p3', runtime: 'custom', command: ['cat'], capability_autoload: ['pack:diagnostics', 'skill:cccc:handoff'] });
    expect((await d.call('capability_state', { group_id: gid, actor_id: 'p3' })).visible_tools).toContain('cccc_terminal');
    const un = await d.call('capability_uninstall', { group_id: gid, capability_id: 'pack:diagnostics', by: 'lead' });
    expect(un).toMatchObject({ removed_actor_autoload: 1, refresh_required: true });
    expect(d.ledgerEvents(gid).at(-1)).toMatchObject({ kind: 'actor.update', by: 'lead', data: { actor_id: 'p3' } });
    const p3 = (await d.call('actor_list', { group_id: gid })).actors.find((a) => a.id === 'p3')!;
    expect(p3.capability_autoload).toEqual(['skill:cccc:handoff']);
    expect((await d.call('capability_state', { group_id: gid, actor_id: 'p3' })).visible_tools).not.toContain('cccc_terminal');
    await d.call('actor_remove', { group_id: gid, actor_id: 'p3' });
    // Enabling again lifts the group's uninstall marker.
    await d.call('capability_enable', { group_id: gid, capability_id: 'pack:diagnostics', scope: 'actor', actor_id: 'p1' });
    await d.call('capability_enable', { group_id: gid, capability_id: 'pack:diagnostics', scope: 'actor', actor_id: 'p1', enabled: false });
  });

  it("a linked profile's capability_defaults autoload reaches the actor's exposure", async () => {
    const { profile } = await d.call('actor_profile_upsert', {
      profile: { name: 'Debugger', runtime: 'custom', command: ['cat'], capability_defaults: { autoload_capabilities: ['pack:diagnostics'] } },
    });
    await d.call('actor_add', { group_id: gid, actor_id: 'p4', profile_id: profile.id });
    const st = await d.call('capability_state', { group_id: gid, actor_id: 'p4', view: 'mcp_catalog' });
    expect(st.visible_tools).toContain('cccc_terminal');
    expect(st.profile_autoload_capabilities).toEqual(['pack:diagnostics']);
    await d.call('actor_remove', { group_id: gid, actor_id: 'p4' });
  });

  it('capability_uninstall and capability_source_delete', async () => {
    await d.call('capability_enable', { group_id: gid, capability_id: 'skill:cccc:code-review', scope: 'group' });
    expect(await d.codeOf('capability_uninstall', { group_id: gid, capability_id: 'skill:cccc:code-review', by: 'p1' })).toBe('permission_denied');
    expect(await d.codeOf('capability_uninstall', { group_id: gid, capability_id: 'skill:none' })).toBe('capability_not_found');
    const un = await d.call('capability_uninstall', { group_id: gid, capability_id: 'skill:cccc:code-review', by: 'lead' });
    expect(un).toMatchObject({ state: 'ready', removed_bindings: 1, removed_group_marker: true, removed_record: false });

    expect(await d.codeOf('capability_source_delete', { group_id: gid, source_id: 'cccc_builtin' })).toBe('protected_capability_source');
    expect(await d.codeOf('capability_source_delete', { group_id: gid, source_id: 'manual_import', by: 'p1' })).toBe('permission_denied');
    expect(await d.codeOf('capability_source_delete', { group_id: gid })).toBe('invalid_request');
    const { group_id: other } = await d.call('group_create', { title: 'other' });
    await d.call('actor_add', { group_id: other, actor_id: 'x1', runtime: 'custom', command: ['cat'], capability_autoload: ['skill:manual:triage', 'pack:diagnostics'] });
    const del = await d.call('capability_source_delete', { group_id: gid, source_id: 'manual_import' });
    expect(del.removed_actor_autoload).toBe(1);
    expect((await d.call('actor_list', { group_id: other })).actors[0]!.capability_autoload).toEqual(['pack:diagnostics']);
    expect(del.removed_capability_ids).toEqual(expect.arrayContaining(['skill:manual:triage', 'mcp:manual:secretive']));
    expect((await d.call('capability_state', { group_id: gid, actor_id: 'p2' })).enabled_capabilities).not.toContain('skill:manual:triage');
  });

  it('capability_tool_call of a tool the caller cannot see: capability_tool_not_found', async () => {
    expect(await d.codeOf('capability_tool_call', { group_id: gid, actor_id: 'p1', tool_name: 'cccc_ext_00000000_echo' })).toBe('capability_tool_not_found');
    expect(await d.codeOf('capability_tool_call', { group_id: gid })).toBe('invalid_request');
  });

  it('only install_target appends: one capability.changed per committed batch, ids only', async () => {
    const before = d.ledgerEvents(gid).filter((e) => e.kind === 'capability.changed');
    expect(before.map((e) => e.data.capability_ids)).toEqual([['skill:cccc:handoff'], ['skill:local:release-notes']]);
    expect(before[0]).toMatchObject({ by: 'user', data: { action: 'install', actor_id: 'p1', target_kind: 'capability_id' } });
    await d.call('capability_install_target', { group_id: gid, target: 'skill:cccc:handoff', actor_id: 'p1' });
    expect(d.ledgerEvents(gid).filter((e) => e.kind === 'capability.changed')).toHaveLength(2);
    expect(d.ledgerEvents(gid).filter((e) => e.kind.startsWith('capability') && e.kind !== 'capability.changed')).toEqual([]);
  });
});

describe('one definition of base tools and packs (spec §8.3 MCP notes)', () => {
  it('the packaged allowlist and the cccc mcp tool catalog agree', async () => {
    const { checkOverlay, defaultAllowlist } = await import('@cccc/capabilities');
    const { ALL_TOOLS, BASE_TOOLS, ROLE_DEFAULT_PACKS } = await import('@cccc/mcp');
    const check = checkOverlay(defaultAllowlist(), {});
    if (!check.valid) throw new Error(check.reason);
    const policy = check.policy;
    expect(policy.base_tools).toEqual(BASE_TOOLS.map((t) => t.name));
    for (const pack of policy.builtin_packs) {
      expect(pack.tools, pack.capability_id).toEqual(ALL_TOOLS.filter((t) => t.pack === pack.capability_id).map((t) => t.name));
    }
    expect(new Set(ALL_TOOLS.filter((t) => t.pack).map((t) => t.pack))).toEqual(new Set(policy.builtin_packs.map((p) => p.capability_id)));
    expect(policy.role_defaults).toEqual(ROLE_DEFAULT_PACKS);
  });
});

describe('capability_search over the socket with the remote skill sources (local fake services)', () => {
  let d: DaemonFixture;
  let fake: FakeSkillSources;
  let gid: string;

  beforeAll(async () => {
    fake = await startFakeSkillSources();
    d = await DaemonFixture.start({
      env: fake.env({
        CCCC_CAPABILITY_SOURCE_MCP_REGISTRY_ENABLED: '0',
        CCCC_CAPABILITY_REMOTE_TIMEOUT_MS: '500',
        CCCC_CAPABILITY_SKILLSMP_API_KEY: FAKE_SKILLSMP_KEY,
        CCCC_CAPABILITY_SOURCE_OPENCLAW_SKILLS_REMOTE_ENABLED: '0',
      }),
    });
    gid = await groupWithTeam(d);
  });
  afterAll(async () => {
    await d?.[Symbol.asyncDispose]();
    await fake?.close();
  });

  it('hits are cached per source, a gated source is not asked, a hanging one is cut off, and the key stays out of results, ledger and log', async () => {
    fake.mode.clawskills = 'slow';
    const started = Date.now();
    const found = await d.call('capability_search', { group_id: gid, query: 'pdf', by: 'p1' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(found.search_diagnostics).toMatchObject({ remote_augmented: true, remote_added: 3, remote_error: 'clawskills_remote:timeout' });
    expect(fake.requests.some((r) => r.path.startsWith('/openclaw'))).toBe(false);
    expect(fake.requests.find((r) => r.path.startsWith('/skillsmp/api'))?.headers.authorization).toBe(`Bearer ${FAKE_SKILLSMP_KEY}`);
    const cached = (await d.call('capability_overview', { query: 'pdf' })).items.filter((i) => i.source_id !== 'cccc_curated');
    expect(cached.map((i) => [i.source_id, i.name]).sort()).toEqual([
      ['clawhub_remote', 'pdf-annotate'],
      ['clawhub_remote', 'pdf-merge'],
      ['skillsmp_remote', 'pdf-reader'],
    ]);
    expect(JSON.stringify(found)).not.toContain(FAKE_SKILLSMP_KEY);
    expect(JSON.stringify(await d.call('capability_overview', {}))).not.toContain(FAKE_SKILLSMP_KEY);
    expect(d.publicText()).not.toContain(FAKE_SKILLSMP_KEY);
    expect(JSON.stringify(d.ledgerEvents(gid))).not.toContain(FAKE_SKILLSMP_KEY);
  });
});
