import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IpcError } from '@cccc/ipc-protocol';
import type { ExternalRuntime } from './external.js';
import type { GroupView } from './group-view.js';
import { capabilityLimitsFromEnv, type CapabilityLimits } from './limits.js';
import type { RemoteSource } from './remote.js';
import type { CapabilityService, CapabilityServiceOptions } from './service.js';

export { startFakeSkillSources, FAKE_SKILLSMP_KEY, type FakeSkillSources, type FakeMode, type FakeSourceKey } from './fake-remote.js';

/**
 * The behaviour every CapabilityService over a CCCC_HOME must show (spec §8.3). `make` builds the
 * service under test from options (a fresh temp home each test); the suite drives it through its
 * public methods and reads the files it writes.
 */
export interface CapabilityContractOptions {
  readonly make: (options: CapabilityServiceOptions) => CapabilityService;
}

export const CONTRACT_GROUP: GroupView = {
  group_id: 'g_contract',
  actors: [
    { id: 'lead', title: 'Lead', role: 'foreman' },
    { id: 'p1', title: 'Peer one', role: 'peer' },
    { id: 'p2', role: 'peer' },
  ],
};

/** A remote source that never answers: search must still return within its time-out. */
export const silentRemote: RemoteSource = { source_id: 'mcp_registry_official', search: () => new Promise(() => undefined) };

async function codeOf(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    return (error as IpcError).code;
  }
  throw new Error('expected the call to fail');
}

export function describeCapabilityContract(name: string, contract: CapabilityContractOptions): void {
  describe(`capability contract: ${name}`, () => {
    let home: string;
    let clock: number;
    const g = CONTRACT_GROUP;
    const gid = g.group_id;
    const limits = (env: NodeJS.ProcessEnv = {}): CapabilityLimits => ({ ...capabilityLimitsFromEnv(env), remoteTimeoutMs: 200 });
    const make = (extra: Partial<CapabilityServiceOptions> = {}) =>
      contract.make({ home, env: { PATH: process.env.PATH ?? '' }, limits: limits(), remoteSources: [], now: () => clock, ...extra });
    const stateFile = () => join(home, 'state', 'capabilities', 'state.json');
    const fileText = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '');

    beforeEach(() => {
      home = mkdtempSync(join(tmpdir(), 'cccc-caps-'));
      clock = Date.parse('2026-12-01T00:00:00Z');
    });
    afterEach(() => rmSync(home, { recursive: true, force: true }));

    it('seeds the catalog from the packaged default: built-in packs and curated records', () => {
      const svc = make();
      const overview = svc.overview({});
      const ids = overview.items.map((i) => i.capability_id);
      expect(ids).toEqual(expect.arrayContaining(['pack:group-runtime', 'pack:diagnostics', 'skill:cccc:code-review']));
      const diag = overview.items.find((i) => i.capability_id === 'pack:diagnostics')!;
      expect(diag).toMatchObject({ kind: 'mcp_toolpack', policy_level: 'mounted', enable_supported: true, tool_names: ['cccc_terminal'] });
      expect(overview.allowlist_revision).toMatch(/^al_[0-9a-f]{16}$/);
      expect(make().overview({}).allowlist_revision).toBe(overview.allowlist_revision);
    });

    it('foreman sees the group-runtime pack by role; a peer sees only base tools', () => {
      const svc = make();
      const lead = svc.state({ group_id: gid, actor_id: 'lead' }, g);
      const peer = svc.state({ group_id: gid, actor_id: 'p1' }, g);
      expect(lead.visible_tools).toEqual(expect.arrayContaining(['cccc_group', 'cccc_actor', 'cccc_help']));
      expect(peer.visible_tools).not.toContain('cccc_group');
      expect(peer.visible_tools).not.toContain('cccc_terminal');
      expect(peer.core_tool_count).toBe(peer.visible_tool_count);
      expect(lead.is_foreman).toBe(true);
    });

    it('enable / disable a pack per actor changes exactly that actor\'s tools', async () => {
      const svc = make();
      const on = await svc.enable({ group_id: gid, capability_id: 'pack:diagnostics', scope: 'actor', by: 'p1' }, g);
      expect(on).toMatchObject({ actor_id: 'p1', enabled: true, state: 'activation_pending', refresh_required: true, refresh_mode: 'relist_or_reconnect' });
      expect(svc.state({ group_id: gid, actor_id: 'p1' }, g).visible_tools).toContain('cccc_terminal');
      expect(svc.state({ group_id: gid, actor_id: 'p2' }, g).visible_tools).not.toContain('cccc_terminal');
      const off = await svc.enable({ group_id: gid, capability_id: 'pack:diagnostics', scope: 'actor', enabled: false, by: 'p1' }, g);
      expect(off).toMatchObject({ state: 'disabled', removed_binding_count: 1, refresh_required: true });
      expect(svc.state({ group_id: gid, actor_id: 'p1' }, g).visible_tools).not.toContain('cccc_terminal');
    });

    it('group scope reaches every actor; session scope expires with its TTL', async () => {
      const svc = make();
      await svc.enable({ group_id: gid, capability_id: 'pack:diagnostics', scope: 'group' }, g);
      expect(svc.state({ group_id: gid, actor_id: 'p2' }, g).visible_tools).toContain('cccc_terminal');
      await svc.enable({ group_id: gid, capability_id: 'pack:diagnostics', scope: 'group', enabled: false }, g);
      await svc.enable({ group_id: gid, capability_id: 'pack:diagnostics', scope: 'session', ttl_seconds: 60, actor_id: 'p1' }, g);
      const during = svc.state({ group_id: gid, actor_id: 'p1' }, g);
      expect(during.session_bindings).toEqual([{ capability_id: 'pack:diagnostics', expires_at: '2026-12-01T00:01:00.000Z', ttl_seconds: 60 }]);
      clock += 61_000;
      const after = svc.state({ group_id: gid, actor_id: 'p1' }, g);
      expect(after.visible_tools).not.toContain('cccc_terminal');
      expect(after.session_bindings).toEqual([]);
    });

    it('refuses callers outside their rights and changes nothing', async () => {
      const svc = make();
      const before = fileText(stateFile());
      expect(await codeOf(() => svc.enable({ group_id: gid, capability_id: 'pack:diagnostics', scope: 'group', by: 'p1' }, g))).toBe('permission_denied');
      expect(await codeOf(() => svc.enable({ group_id: gid, capability_id: 'pack:diagnostics', scope: 'actor', actor_id: 'p2', by: 'p1' }, g))).toBe('permission_denied');
      expect(await codeOf(() => svc.enable({ group_id: gid, capability_id: 'pack:diagnostics', by: 'stranger' }, g))).toBe('permission_denied');
      expect(await codeOf(() => svc.enable({ group_id: gid, capability_id: 'pack:nope' }, g))).toBe('capability_not_found');
      expect(await codeOf(() => svc.enable({ group_id: gid, capability_id: 'pack:diagnostics', actor_id: 'ghost' }, g))).toBe('actor_not_found');
      expect(await codeOf(() => svc.block({ group_id: gid, capability_id: 'pack:diagnostics', scope: 'global', by: 'lead' }, g))).toBe('permission_denied');
      expect(await codeOf(() => svc.block({ group_id: gid, capability_id: 'pack:diagnostics', by: 'p1' }, g))).toBe('permission_denied');
      expect(fileText(stateFile())).toBe(before);
    });

    it('a block revokes bindings and role defaults at once; unblock restores the role default only', async () => {
      const svc = make();
      await svc.enable({ group_id: gid, capability_id: 'pack:diagnostics', scope: 'actor', actor_id: 'p1' }, g);
      const blocked = await svc.block({ group_id: gid, capability_id: 'pack:diagnostics', reason: 'noisy', by: 'lead' }, g);
      expect(blocked).toMatchObject({ scope: 'group', blocked: true, state: 'blocked', removed_bindings: 1, refresh_required: true, block: { reason: 'noisy', by: 'lead' } });
      expect(svc.state({ group_id: gid, actor_id: 'p1' }, g).visible_tools).not.toContain('cccc_terminal');
      const refused = await svc.enable({ group_id: gid, capability_id: 'pack:diagnostics', scope: 'actor', actor_id: 'p1' }, g);
      expect(refused).toMatchObject({ enabled: false, state: 'blocked', reason: 'blocked_group' });

      await svc.block({ group_id: gid, capability_id: 'pack:group-runtime', scope: 'global', ttl_seconds: 30 }, g);
      const lead = svc.state({ group_id: gid, actor_id: 'lead' }, g);
      expect(lead.visible_tools).not.toContain('cccc_group');
      expect(lead.hidden_capabilities).toEqual(expect.arrayContaining([expect.objectContaining({ capability_id: 'pack:group-runtime', reason: 'blocked_global' })]));
      expect(svc.overview({}).blocked_capabilities.map((b) => b.capability_id)).toEqual(['pack:group-runtime']);
      clock += 31_000; // the global block expires
      expect(svc.state({ group_id: gid, actor_id: 'lead' }, g).visible_tools).toContain('cccc_group');
      const unblocked = await svc.block({ group_id: gid, capability_id: 'pack:diagnostics', blocked: false }, g);
      expect(unblocked).toMatchObject({ blocked: false, state: 'unblocked' });
      expect(svc.state({ group_id: gid, actor_id: 'p1' }, g).visible_tools).not.toContain('cccc_terminal');
    });

    it('quotas answer ok with state failed and a deterministic reason', async () => {
      const svc = make({ limits: limits({ CCCC_CAPABILITY_MAX_ENABLED_PER_ACTOR: '1', CCCC_CAPABILITY_MAX_ENABLED_PER_GROUP: '1' }) });
      await svc.enable({ group_id: gid, capability_id: 'pack:diagnostics', scope: 'actor', actor_id: 'p1' }, g);
      const second = await svc.enable({ group_id: gid, capability_id: 'pack:group-runtime', scope: 'actor', actor_id: 'p1' }, g);
      expect(second).toMatchObject({ enabled: false, state: 'failed', reason: 'quota_exceeded:max_enabled_per_actor' });
      // Skills do not count against the actor quota.
      expect((await svc.enable({ group_id: gid, capability_id: 'skill:cccc:handoff', scope: 'actor', actor_id: 'p1' }, g)).state).toBe('runnable');
      await svc.enable({ group_id: gid, capability_id: 'pack:diagnostics', scope: 'group' }, g);
      const group2 = await svc.enable({ group_id: gid, capability_id: 'skill:cccc:handoff', scope: 'group' }, g);
      expect(group2).toMatchObject({ state: 'failed', reason: 'quota_exceeded:max_enabled_per_group' });
      // Re-enabling something already bound is not a new slot.
      expect((await svc.enable({ group_id: gid, capability_id: 'pack:diagnostics', scope: 'group' }, g)).state).toBe('activation_pending');
    });

    it('allowlist: deterministic merge, revision, validation, optimistic update, reset', async () => {
      const svc = make();
      const got = svc.allowlistGet();
      expect(got.overlay).toEqual({});
      expect(got.effective).toEqual(got.default);
      const valid = svc.allowlistValidate({ patch: { capability_overrides: [{ capability_id: 'pack:diagnostics', level: 'indexed' }] } });
      expect(valid).toMatchObject({ valid: true, reason: '' });
      expect(valid.revision).not.toBe(got.revision);
      expect(existsSync(join(home, 'config', 'capability-allowlist.user.yaml'))).toBe(false);
      const bad = svc.allowlistValidate({ patch: { capability_overrides: [{ capability_id: 'x', level: 'everywhere' }] } });
      expect(bad.valid).toBe(false);
      expect(bad.reason).toContain('capability_overrides');
      expect(svc.allowlistValidate({ mode: 'replace', overlay: { builtin_packs: [] } }).valid).toBe(false);

      expect(await codeOf(() => svc.allowlistUpdate({ by: 'lead', patch: {} }))).toBe('permission_denied');
      expect(await codeOf(() => svc.allowlistUpdate({ patch: {}, expected_revision: 'al_stale' }))).toBe('allowlist_revision_mismatch');
      expect(await codeOf(() => svc.allowlistUpdate({ patch: { external_capability_safety_mode: 'reckless' } }))).toBe('allowlist_validation_failed');
      expect(existsSync(join(home, 'config', 'capability-allowlist.user.yaml'))).toBe(false);

      const updated = await svc.allowlistUpdate({ expected_revision: got.revision, patch: { capability_overrides: [{ capability_id: 'pack:diagnostics', level: 'indexed' }] } });
      expect(updated).toMatchObject({ updated: true, revision: valid.revision });
      expect(svc.overview({}).items.find((i) => i.capability_id === 'pack:diagnostics')).toMatchObject({ policy_level: 'indexed', policy_visible: false, enable_supported: false });
      const refused = await svc.enable({ group_id: gid, capability_id: 'pack:diagnostics', actor_id: 'p1' }, g);
      expect(refused).toMatchObject({ state: 'blocked', reason: 'policy_level_indexed' });
      expect(svc.overview({ include_indexed: false }).items.map((i) => i.capability_id)).not.toContain('pack:diagnostics');

      const reset = await svc.allowlistReset({});
      expect(reset).toMatchObject({ reset: true, removed_overlay_file: true, revision: got.revision, overlay: {} });
      expect((await svc.allowlistReset({})).removed_overlay_file).toBe(false);
    });

    it('an overlay file that is not valid is reported and ignored, never half-applied', () => {
      const path = join(home, 'config', 'capability-allowlist.user.yaml');
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, 'defaults: [not, a, mapping\n');
      const got = make().allowlistGet();
      expect(got.overlay).toEqual({});
      expect(got.overlay_error).toContain('YAML');
    });

    it('conservative safety mode holds every non-built-in source at indexed', async () => {
      const svc = make();
      await svc.allowlistUpdate({ patch: { external_capability_safety_mode: 'conservative' } });
      const items = svc.overview({}).items;
      expect(items.find((i) => i.capability_id === 'skill:cccc:code-review')?.policy_level).toBe('indexed');
      expect(items.find((i) => i.capability_id === 'pack:diagnostics')?.policy_level).toBe('mounted');
    });

    it('import: created, unchanged, updated; dry run persists nothing; self-proposed rules', async () => {
      const svc = make();
      const record = { capability_id: 'skill:manual:lint', kind: 'skill' as const, name: 'Lint', capsule_text: 'Run the linter.' };
      const dry = await svc.import({ group_id: gid, record, dry_run: true }, g);
      expect(dry).toMatchObject({ dry_run: true, imported: false, state: 'enableable', probe: { state: 'runnable' } });
      expect(svc.overview({}).items.map((i) => i.capability_id)).not.toContain('skill:manual:lint');
      const created = await svc.import({ group_id: gid, record }, g);
      expect(created).toMatchObject({ imported: true, import_action: 'created', effective_policy_level: 'mounted', enableable_now: true, already_active: false, active_after_import: false });
      expect(created.record).toMatchObject({ source_id: 'manual_import' });
      clock += 5000;
      expect(await svc.import({ group_id: gid, record }, g)).toMatchObject({ import_action: 'unchanged', record_changed: false });
      const updated = await svc.import({ group_id: gid, record: { ...record, capsule_text: 'Run the linter twice.' }, enable_after_import: true, scope: 'actor', actor_id: 'p1' }, g);
      expect(updated).toMatchObject({ import_action: 'updated', record_changed: true, active_after_import: true, state: 'runnable' });
      const skills = svc.state({ group_id: gid, actor_id: 'p1' }, g).active_capsule_skills!;
      expect(skills).toEqual([expect.objectContaining({ capability_id: 'skill:manual:lint', capsule_text: 'Run the linter twice.' })]);

      expect(await codeOf(() => svc.import({ group_id: gid, record: { capability_id: 'mcp:x', kind: 'skill', capsule_text: 'x' } }, g))).toBe('invalid_request');
      expect(await codeOf(() => svc.import({ group_id: gid, record: { capability_id: 'skill:x', kind: 'skill' } }, g))).toBe('invalid_request');
      expect(await codeOf(() => svc.import({ group_id: gid, record: { capability_id: 'mcp:x', kind: 'mcp_toolpack' } }, g))).toBe('invalid_request');
      expect(await codeOf(() => svc.import({ group_id: gid, record: { capability_id: 'skill:cccc:handoff', kind: 'skill', capsule_text: 'x' } }, g))).toBe('invalid_request');
      const proposed = { capability_id: 'skill:agent_self_proposed:retry', kind: 'skill' as const, source_id: 'agent_self_proposed', capsule_text: 'When to use: flaky test.' };
      expect(await codeOf(() => svc.import({ group_id: gid, record: proposed }, g))).toBe('invalid_request');
      expect(await svc.import({ group_id: gid, record: proposed, dry_run: true }, g)).toMatchObject({ state: 'needs_inspect', diagnostics: [expect.objectContaining({ code: 'capsule_sections_missing' })] });
      const full = 'When to use: x\nAvoid when: y\nProcedure: z\nPitfalls: p\nVerification: v';
      expect(await svc.import({ group_id: gid, record: { ...proposed, capsule_text: full } }, g)).toMatchObject({ imported: true, effective_policy_level: 'mounted' });
      expect(await codeOf(() => svc.import({ group_id: gid, record: { ...proposed, capability_id: 'skill:retry', capsule_text: full } }, g))).toBe('invalid_request');
    });

    it('a skill auto-applies its declared dependencies at the same scope', async () => {
      const svc = make();
      await svc.import({ group_id: gid, record: { capability_id: 'skill:manual:debug', kind: 'skill', capsule_text: 'Read the terminal.', requires_capabilities: ['pack:diagnostics', 'pack:missing'] } }, g);
      const on = await svc.enable({ group_id: gid, capability_id: 'skill:manual:debug', scope: 'actor', actor_id: 'p1' }, g);
      expect(on.skill).toMatchObject({ applied_dependencies: ['pack:diagnostics'], skipped_dependencies: [{ capability_id: 'pack:missing', reason: 'capability_not_found' }] });
      expect(on.refresh_required).toBe(true);
      expect(svc.state({ group_id: gid, actor_id: 'p1' }, g).visible_tools).toContain('cccc_terminal');
    });

    it('external MCP records run preflight first: preflight_failed:<code>', async () => {
      const svc = make();
      const mcp = (id: string, mode: 'remote_only' | 'package' | 'command', install_spec: Record<string, unknown>) =>
        svc.import({ group_id: gid, record: { capability_id: id, kind: 'mcp_toolpack', install_mode: mode, install_spec } }, g);
      await mcp('mcp:t:cmd', 'command', { command: ['definitely-not-a-binary-xyz', '--stdio'] });
      await mcp('mcp:t:env', 'command', { command: 'node', required_env: ['CCCC_TEST_TOKEN_NOT_SET'] });
      await mcp('mcp:t:url', 'remote_only', { url: 'ftp://example' });
      await mcp('mcp:t:pkg', 'package', { registry: 'npm', package: 'Not A Name' });
      const cases: Array<[string, string]> = [
        ['mcp:t:cmd', 'preflight_failed:missing_binary'],
        ['mcp:t:env', 'preflight_failed:missing_required_env'],
        ['mcp:t:url', 'preflight_failed:invalid_remote_url'],
        ['mcp:t:pkg', 'preflight_failed:invalid_install_spec'],
      ];
      for (const [id, reason] of cases) {
        const result = await svc.enable({ group_id: gid, capability_id: id, actor_id: 'p1' }, g);
        expect(result, id).toMatchObject({ enabled: false, state: 'blocked', reason });
      }
      const env = await svc.enable({ group_id: gid, capability_id: 'mcp:t:env', actor_id: 'p1' }, g);
      expect(env.required_env).toEqual(['CCCC_TEST_TOKEN_NOT_SET']);
      expect(svc.state({ group_id: gid, actor_id: 'p1' }, g).enabled_capabilities).toEqual([]);
    });

    it('dynamic tools of installed servers follow bindings, capped by the visible limit', async () => {
      const runtime: ExternalRuntime = {
        install: async (record, artifactDir) => ({
          capability_id: record.capability_id,
          artifact_id: artifactDir,
          install_state: 'installed',
          install_mode: 'command',
          argv: ['node'],
          tools: ['a', 'b', 'c'].map((n) => ({ name: n, inputSchema: { type: 'object' } })),
          installed_at: new Date(clock).toISOString(),
        }),
        uninstall: async () => undefined,
        callTool: async (_r, _i, tool, args) => ({ content: [{ type: 'text', text: `${tool}:${JSON.stringify(args)}` }] }),
        close: async () => undefined,
      };
      const svc = make({ external: runtime, limits: { ...limits(), maxDynamicToolsVisible: 2 } });
      await svc.import({ group_id: gid, record: { capability_id: 'mcp:t:node', kind: 'mcp_toolpack', install_mode: 'command', install_spec: { command: ['node'] } } }, g);
      const on = await svc.enable({ group_id: gid, capability_id: 'mcp:t:node', scope: 'actor', actor_id: 'p1' }, g);
      expect(on).toMatchObject({ state: 'activation_pending', install_state: 'installed' });
      const st = svc.state({ group_id: gid, actor_id: 'p1' }, g);
      expect(st.dynamic_tools!.map((t) => t.real_tool_name)).toEqual(['a', 'b']);
      expect(st.dynamic_tool_dropped).toBe(1);
      expect(st.visible_tools).toEqual(expect.arrayContaining(st.dynamic_tools!.map((t) => t.name)));
      const call = await svc.toolCall({ group_id: gid, actor_id: 'p1', tool_name: st.dynamic_tools![0]!.name, arguments: { x: 1 } }, g);
      expect(call).toMatchObject({ capability_id: 'mcp:t:node', result: { content: [{ text: 'a:{"x":1}' }] } });
      expect(await codeOf(() => svc.toolCall({ group_id: gid, actor_id: 'p2', tool_name: st.dynamic_tools![0]!.name }, g))).toBe('capability_tool_not_found');

      const un = await svc.uninstall({ group_id: gid, capability_id: 'mcp:t:node' }, g);
      expect(un).toMatchObject({ removed_bindings: 1, removed_group_marker: true, removed_installation: true });
      expect(svc.state({ group_id: gid, actor_id: 'p1' }, g).dynamic_tools).toEqual([]);
    });

    it('uninstall keeps the cache while another group still binds it', async () => {
      const other: GroupView = { group_id: 'g_other', actors: [{ id: 'x', role: 'foreman' }] };
      const svc = make();
      await svc.enable({ group_id: gid, capability_id: 'skill:cccc:handoff', scope: 'group' }, g);
      await svc.enable({ group_id: 'g_other', capability_id: 'skill:cccc:handoff', scope: 'group' }, other);
      const un = await svc.uninstall({ group_id: gid, capability_id: 'skill:cccc:handoff' }, g);
      expect(un).toMatchObject({ removed_bindings: 1, removed_record: false, removed_installation: false });
      expect(svc.state({ group_id: 'g_other', actor_id: 'x' }, other).enabled_capabilities).toContain('skill:cccc:handoff');
      expect(await codeOf(() => svc.uninstall({ group_id: gid, capability_id: 'skill:cccc:handoff', by: 'p1' }, g))).toBe('permission_denied');
    });

    it('source_delete removes a removable source everywhere and protects built-in and curated sources', async () => {
      const svc = make();
      await svc.import({ group_id: gid, record: { capability_id: 'skill:manual:a', kind: 'skill', capsule_text: 'a' }, enable_after_import: true, scope: 'group' }, g);
      await svc.import({ group_id: gid, record: { capability_id: 'skill:manual:b', kind: 'skill', capsule_text: 'b' } }, g);
      expect(await codeOf(() => svc.sourceDelete({ group_id: gid, source_id: 'cccc_builtin' }, g))).toBe('protected_capability_source');
      expect(await codeOf(() => svc.sourceDelete({ group_id: gid, source_id: 'manual_import', by: 'p1' }, g))).toBe('permission_denied');
      const del = await svc.sourceDelete({ group_id: gid, source_id: 'manual_import', by: 'lead' }, g);
      expect(del).toMatchObject({ removed_records: 2, removed_capability_ids: ['skill:manual:a', 'skill:manual:b'], removed_runtime_bindings: 1 });
      expect(svc.overview({}).items.map((i) => i.capability_id)).not.toContain('skill:manual:a');
    });

    it('the catalog keeps at most CCCC_CAPABILITY_CATALOG_MAX_RECORDS imported records, oldest unbound first', async () => {
      const svc = make({ limits: { ...limits(), catalogMaxRecords: 2 } });
      for (const n of ['a', 'b', 'c']) {
        clock += 1000;
        await svc.import({ group_id: gid, record: { capability_id: `skill:manual:${n}`, kind: 'skill', capsule_text: n } }, g);
      }
      const ids = svc.overview({}).items.map((i) => i.capability_id).filter((id) => id.startsWith('skill:manual:'));
      expect(ids.sort()).toEqual(['skill:manual:b', 'skill:manual:c']);
    });

    it('search: local first; a silent remote source is cut off by its time-out and reported', async () => {
      const svc = make({ remoteSources: [silentRemote] });
      const started = Date.now();
      const found = await svc.search({ group_id: gid, query: 'terminal' }, g);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(found.items.map((i) => i.capability_id)).toEqual(['pack:diagnostics']);
      expect(found.items[0]).toMatchObject({ enabled: false, enable_hint: 'enable_now', readiness_preview: { preview_status: 'enableable' } });
      expect(found.search_diagnostics).toMatchObject({ remote_augmented: false, remote_added: 0, remote_error: 'mcp_registry_official:timeout' });
      const filtered = await svc.search({ group_id: gid, kind: 'skill', include_external: false }, g);
      expect(filtered.items.every((i) => i.kind === 'skill')).toBe(true);
      expect(filtered.search_diagnostics?.remote_error).toBeUndefined();
    });

    it('search caches accepted remote hits into the local catalog', async () => {
      const remote: RemoteSource = {
        source_id: 'mcp_registry_official',
        search: async () => [
          { capability_id: 'mcp:io.example/thing', kind: 'mcp_toolpack', name: 'thing', description_short: 'a thing', source_id: 'mcp_registry_official', source_tier: 'registry', trust_tier: 'unverified', qualification_status: 'qualified', tags: [], install_mode: 'remote_only', install_spec: { url: 'https://example.invalid/mcp' } },
        ],
      };
      const svc = make({ remoteSources: [remote] });
      const found = await svc.search({ group_id: gid, query: 'thing' }, g);
      expect(found.search_diagnostics).toMatchObject({ remote_augmented: true, remote_added: 1 });
      // The registry source is indexed by default: cached, counted, but not shown.
      expect(found.search_diagnostics?.policy_hidden_count).toBe(1);
      expect(svc.overview({}).items.map((i) => i.capability_id)).toContain('mcp:io.example/thing');
    });

    it('visibility hides a capability on one actor\'s menus without touching bindings', async () => {
      const svc = make();
      await svc.enable({ group_id: gid, capability_id: 'skill:cccc:handoff', scope: 'actor', actor_id: 'p1' }, g);
      const hid = await svc.visibility({ group_id: gid, capability_id: 'skill:cccc:handoff', hidden: true, by: 'p1' }, g);
      expect(hid).toMatchObject({ actor_id: 'p1', hidden: true, state: 'hidden', actor_hidden_capabilities: ['skill:cccc:handoff'] });
      const st = svc.state({ group_id: gid, actor_id: 'p1' }, g);
      expect(st.actor_hidden_capabilities).toEqual(['skill:cccc:handoff']);
      expect(st.enabled_capabilities).toContain('skill:cccc:handoff');
      expect(await codeOf(() => svc.visibility({ group_id: gid, capability_id: 'x', hidden: true, actor_id: 'p2', by: 'p1' }, g))).toBe('permission_denied');
      expect((await svc.visibility({ group_id: gid, capability_id: 'skill:cccc:handoff', hidden: false, by: 'p1' }, g)).actor_hidden_capabilities).toEqual([]);
    });

    it("a linked profile's autoload capabilities are active for the actor and reported as such", () => {
      const svc = make();
      const withProfile: GroupView = {
        group_id: gid,
        actors: [{ id: 'lead', role: 'foreman' }, { id: 'p1', role: 'peer', profile: { id: 'ap_1', name: 'Debugger', autoload: ['pack:diagnostics'] } }],
      };
      const st = svc.state({ group_id: gid, actor_id: 'p1' }, withProfile);
      expect(st.visible_tools).toContain('cccc_terminal');
      expect(st.profile_autoload_capabilities).toEqual(['pack:diagnostics']);
      const usage = svc.state({ group_id: gid, actor_id: 'user', capability_id: 'pack:diagnostics' }, withProfile).capability_usage!;
      expect(usage).toMatchObject({ used: true, profile_autoload: [{ actor_id: 'p1', profile_id: 'ap_1', profile_name: 'Debugger' }] });
    });

    it('capability_usage reports who has a capability and how', async () => {
      const svc = make();
      await svc.enable({ group_id: gid, capability_id: 'pack:diagnostics', scope: 'actor', actor_id: 'p1' }, g);
      await svc.enable({ group_id: gid, capability_id: 'pack:diagnostics', scope: 'session', actor_id: 'p2', ttl_seconds: 120 }, g);
      const usage = svc.state({ group_id: gid, actor_id: 'user', capability_id: 'pack:diagnostics' }, g).capability_usage!;
      expect(usage).toMatchObject({ used: true, group_enabled: false, group_actor_count: 3, actor_enabled: [{ actor_id: 'p1', actor_title: 'Peer one' }], session_enabled: [{ actor_id: 'p2', ttl_seconds: 120 }], blocked: false });
    });

    it('install_target: a capability id, a local SKILL.md folder; bad targets change nothing', async () => {
      const svc = make();
      const byId = await svc.installTarget({ group_id: gid, target: 'pack:diagnostics', actor_id: 'p1' }, g);
      expect(byId).toMatchObject({ target_kind: 'capability_id', scope: 'actor', enabled_capability_ids: ['pack:diagnostics'], state: 'ready', refresh_required: true });
      const dir = join(home, 'skills-repo');
      mkdirSync(join(dir, 'skills', 'triage'), { recursive: true });
      writeFileSync(join(dir, 'SKILL.md'), '---\nname: Root Skill\ndescription: the root\n---\nDo the root thing.\n');
      writeFileSync(join(dir, 'skills', 'triage', 'SKILL.md'), '---\nname: Triage\n---\nSort the bugs.\n');
      const local = await svc.installTarget({ group_id: gid, target: dir, actor_id: 'p1' }, g);
      expect(local).toMatchObject({ target_kind: 'local_path', installed_capability_ids: ['skill:local:root-skill', 'skill:local:triage'], state: 'ready' });
      const skills = svc.state({ group_id: gid, actor_id: 'p1' }, g).active_capsule_skills!.map((s) => s.capability_id);
      expect(skills).toEqual(expect.arrayContaining(['skill:local:root-skill', 'skill:local:triage']));
      const before = fileText(stateFile());
      expect(await codeOf(() => svc.installTarget({ group_id: gid, target: join(home, 'missing') }, g))).toBe('install_target_invalid');
      expect(await codeOf(() => svc.installTarget({ group_id: gid, target: 'relative/path' }, g))).toBe('install_target_invalid');
      expect(await codeOf(() => svc.installTarget({ group_id: gid, target: join(home, 'skills-repo', 'skills') }, g))).toBe('install_target_invalid');
      writeFileSync(join(home, 'secret.txt'), 'not a skill');
      expect(await codeOf(() => svc.installTarget({ group_id: gid, target: join(home, 'secret.txt') }, g))).toBe('install_target_invalid');
      expect(await codeOf(() => svc.installTarget({ group_id: gid, target: 'skill:nope' }, g))).toBe('capability_not_found');
      expect(fileText(stateFile())).toBe(before);
    });

    it('install_target publishes one change per committed batch; a publish failure is reported, not rolled back', async () => {
      const published: unknown[] = [];
      let failing = false;
      const svc = make({
        publishChange: async (groupId, by, data) => {
          if (failing) throw new Error('ledger is read-only');
          published.push({ groupId, by, data });
        },
      });
      await svc.installTarget({ group_id: gid, target: 'skill:cccc:handoff', actor_id: 'p1' }, g);
      expect(published).toEqual([{ groupId: gid, by: 'user', data: expect.objectContaining({ action: 'install', capability_ids: ['skill:cccc:handoff'], actor_id: 'p1' }) }]);
      await svc.installTarget({ group_id: gid, target: 'skill:cccc:handoff', actor_id: 'p1' }, g);
      expect(published).toHaveLength(1); // unchanged reinstall: no second event
      failing = true;
      const result = await svc.installTarget({ group_id: gid, target: 'pack:diagnostics', actor_id: 'p1' }, g);
      expect(result).toMatchObject({ state: 'ready', event_publish_error: 'ledger is read-only' });
      expect(svc.state({ group_id: gid, actor_id: 'p1' }, g).enabled_capabilities).toContain('pack:diagnostics');
    });

    it('writes its state atomically under CCCC_HOME/state/capabilities and tells listeners', async () => {
      const svc = make();
      const seen: Array<readonly string[] | 'all'> = [];
      svc.onChange((groups) => seen.push(groups));
      await svc.enable({ group_id: gid, capability_id: 'pack:diagnostics', scope: 'actor', actor_id: 'p1' }, g);
      expect(JSON.parse(fileText(stateFile()))).toMatchObject({ v: 1, actor_bindings: { [gid]: { p1: { 'pack:diagnostics': { by: 'user' } } } } });
      expect(seen.length).toBe(1);
      await svc.enable({ group_id: gid, capability_id: 'pack:diagnostics', scope: 'actor', actor_id: 'p1' }, g);
      expect(seen.length).toBe(1); // unchanged: no write, no notice
    });
  });
}
