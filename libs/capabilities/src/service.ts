import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { CapabilityEnableResult, CapabilityImportRecord, EnableScope, OpArgs, OpName, OpResult } from '@cccc/ipc-protocol';
import { applyMergePatch, checkOverlay } from './allowlist.js';
import { canonicalJson, shortHash } from './canonical.js';
import { defaultAllowlist } from './default-allowlist.js';
import { bind, enableRefusal, isBound, unbind, type BindingTarget } from './enable.js';
import { capabilityError } from './errors.js';
import { exposureOf } from './exposure.js';
import type { ExternalRuntime } from './external.js';
import { principal, roleOfPrincipal, type CallerRole, type GroupView } from './group-view.js';
import { importRecord, type ImportOutcome } from './import.js';
import { capabilityLimitsFromEnv, type CapabilityLimits } from './limits.js';
import { SerialQueue } from './mutex.js';
import { pathLookup, preflight } from './preflight.js';
import { recordPolicy } from './policy.js';
import { REMOVABLE_SOURCES, semanticRecord, type CapabilityRecord } from './records.js';
import { remoteSourcesFromLimits, searchRemote, type RemoteSource } from './remote.js';
import { buildSnapshot, type CapabilitySnapshot } from './snapshot.js';
import { blockOf, boundAnywhere, pruneExpired, revokeBindings, type CapabilityState } from './state.js';
import { CapabilityFiles, CapabilityPaths, type ImportedCatalog } from './store.js';
import { stateView, usageView } from './state-view.js';
import { resolveInstallTarget } from './install-target.js';
import { overviewItem, recordView, searchItem, sourceStates } from './views.js';

export interface CapabilityServiceOptions {
  readonly home: string;
  /** Quotas, caps and source gates (CCCC_CAPABILITY_*) and the env preflight checks against. */
  readonly env?: NodeJS.ProcessEnv;
  readonly limits?: CapabilityLimits;
  readonly external?: ExternalRuntime;
  readonly remoteSources?: readonly RemoteSource[];
  readonly now?: () => number;
  /**
   * Publish a committed install batch (capability_install_target) as one `capability.changed`
   * event of the group. A failure here does not undo the commit: the result reports
   * `event_publish_error` instead.
   */
  readonly publishChange?: (groupId: string, by: string, data: CapabilityChange) => Promise<void>;
}

/** What a `capability.changed` event says (ids only). */
export interface CapabilityChange {
  readonly action: 'install';
  readonly actor_id: string;
  readonly scope: EnableScope;
  readonly target: string;
  readonly target_kind: string;
  readonly capability_ids: string[];
  readonly enabled_capability_ids: string[];
}

type Args<K extends OpName> = OpArgs<K>;

const REFRESH = { refresh_mode: 'relist_or_reconnect', wait: 'relist_or_reconnect' } as const;

/** A draft of everything a write may change; persisted only when it differs from what was read. */
interface Draft {
  readonly snap: CapabilitySnapshot;
  readonly state: CapabilityState;
  readonly imported: ImportedCatalog;
}

/**
 * The capability control plane over one CCCC_HOME: every capability_* op as a method. Reads
 * never wait for writers (files are replaced atomically); writes are serialized in-process.
 */
export class CapabilityService {
  readonly paths: CapabilityPaths;
  readonly limits: CapabilityLimits;
  private readonly files: CapabilityFiles;
  private readonly writes = new SerialQueue();
  private readonly env: NodeJS.ProcessEnv;
  private readonly remote: readonly RemoteSource[];
  private readonly now: () => number;
  private readonly listeners = new Set<(groupIds: readonly string[] | 'all') => void>();

  constructor(private readonly options: CapabilityServiceOptions) {
    this.paths = new CapabilityPaths(options.home);
    this.files = new CapabilityFiles(this.paths);
    this.env = options.env ?? process.env;
    this.limits = options.limits ?? capabilityLimitsFromEnv(this.env);
    this.remote = options.remoteSources ?? remoteSourcesFromLimits(this.limits);
    this.now = options.now ?? Date.now;
  }

  /** Told after a committed change of exposure (which groups, or all): MCP sessions relist. */
  onChange(listener: (groupIds: readonly string[] | 'all') => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  snapshot(): CapabilitySnapshot {
    const state = this.files.readState();
    pruneExpired(state, this.now());
    return buildSnapshot(defaultAllowlist(), this.files.readOverlay(), this.files.readCatalog(), state);
  }

  // ---- reads -------------------------------------------------------------------------------

  overview(args: Args<'capability_overview'>): OpResult<'capability_overview'> {
    const snap = this.snapshot();
    const query = (args.query ?? '').trim();
    const limit = Math.min(args.limit ?? 400, 2000);
    const includeIndexed = args.include_indexed !== false;
    const items = [...snap.catalog.values()]
      .filter((r) => matches(r, query))
      .map((r) => overviewItem(snap, r))
      .filter((item) => includeIndexed || item.policy_visible)
      .slice(0, limit);
    const blocked = Object.entries(snap.state.blocked_global).map(([capability_id, b]) => ({ capability_id, scope: 'global' as const, ...b }));
    return { items, count: items.length, query, sources: sourceStates(snap, this.now()), blocked_capabilities: blocked, allowlist_revision: snap.revision };
  }

  async search(args: Args<'capability_search'>, group: GroupView): Promise<OpResult<'capability_search'>> {
    const by = this.caller(group, args.by);
    const actorId = this.targetActor(group, by, args.actor_id);
    let snap = this.snapshot();
    const limit = Math.min(args.limit ?? 30, 200);
    const query = (args.query ?? '').trim();
    const filters = { kind: args.kind ?? '', source_id: args.source_id ?? '', trust_tier: args.trust_tier ?? '', qualification_status: args.qualification_status ?? '' };
    const pick = (s: CapabilitySnapshot) => {
      const active = exposureOf(s, group, actorId, this.now(), this.limits.maxDynamicToolsVisible).active;
      let hidden = 0;
      const items = [];
      for (const record of s.catalog.values()) {
        if (!matches(record, query) || !passes(record, filters)) continue;
        if (!recordPolicy(s.policy, record).visible) {
          hidden += 1;
          continue;
        }
        const hit = blockOf(s.state, group.group_id, record.capability_id);
        items.push(searchItem(s, record, active.has(record.capability_id), hit ? (hit.block.reason ?? `blocked_${hit.scope}`) : undefined));
      }
      return { items: items.sort((a, b) => score(b, query) - score(a, query) || a.capability_id.localeCompare(b.capability_id)).slice(0, limit), hidden };
    };
    let found = pick(snap);
    const diagnostics: { remote_augmented: boolean; remote_added: number; remote_error?: string; policy_hidden_count: number } = {
      remote_augmented: false,
      remote_added: 0,
      policy_hidden_count: found.hidden,
    };
    const wantRemote = args.include_external !== false && this.limits.remoteFallback && query !== '' && found.items.length < limit;
    // Only sources that can yield what the filters ask for (kind, source_id).
    const sources = this.remote.filter((s) => (!filters.kind || !s.kind || s.kind === filters.kind) && (!filters.source_id || s.source_id === filters.source_id));
    if (wantRemote && sources.length > 0) {
      const results = await searchRemote(sources, query, Math.min(this.limits.remoteFallbackLimit, limit), this.limits.remoteTimeoutMs);
      const errors = results.filter((r) => r.error).map((r) => `${r.source_id}:${r.error}`);
      if (errors.length > 0) diagnostics.remote_error = errors.join('; ');
      const fresh = results.flatMap((r) => r.records).filter((r) => !snap.catalog.has(r.capability_id));
      if (fresh.length > 0) {
        await this.write(async (d) => {
          for (const record of fresh) if (!d.snap.catalog.has(record.capability_id)) d.imported[record.capability_id] = { ...record, synced_at: new Date(this.now()).toISOString() };
        });
        snap = this.snapshot();
        found = pick(snap);
        diagnostics.policy_hidden_count = found.hidden;
        diagnostics.remote_augmented = true;
        diagnostics.remote_added = fresh.length;
      }
    }
    return {
      group_id: group.group_id,
      actor_id: actorId,
      default_profile: 'core',
      items: found.items,
      count: found.items.length,
      sources: sourceStates(snap, this.now()),
      applied_filters: filters,
      search_diagnostics: diagnostics,
    };
  }

  state(args: Args<'capability_state'>, group: GroupView): OpResult<'capability_state'> {
    const by = this.caller(group, args.by);
    const actorId = this.targetActor(group, by, args.actor_id);
    const snap = this.snapshot();
    const view = stateView(snap, group, actorId, this.now(), this.limits);
    return args.capability_id ? { ...view, capability_usage: usageView(snap, group, args.capability_id, this.now()) } : view;
  }

  // ---- allowlist ---------------------------------------------------------------------------

  allowlistGet(): OpResult<'capability_allowlist_get'> {
    const snap = this.snapshot();
    return { ...this.allowlistSnapshot(snap), ...this.policySources(snap) };
  }

  allowlistValidate(args: Args<'capability_allowlist_validate'>): OpResult<'capability_allowlist_validate'> {
    const snap = this.snapshot();
    const proposed = this.proposedOverlay(snap, args);
    const check = checkOverlay(snap.defaults, proposed.overlay ?? {});
    const reason = proposed.error ?? check.reason;
    const valid = proposed.error === undefined && check.valid;
    const effective = valid ? check.effective : snap.effective;
    return {
      valid,
      reason,
      default: snap.defaults,
      overlay: valid ? (proposed.overlay ?? {}) : snap.overlay,
      effective,
      revision: valid ? buildSnapshot(snap.defaults, { overlay: proposed.overlay ?? {}, error: '' }, {}, snap.state).revision : snap.revision,
      external_capability_safety_mode: safetyMode(effective),
    };
  }

  allowlistUpdate(args: Args<'capability_allowlist_update'> & { by?: string }): Promise<OpResult<'capability_allowlist_update'>> {
    if (principal(args.by) !== 'user') throw capabilityError('permission_denied', 'only the user may change the capability allowlist', { by: principal(args.by) });
    return this.writes.run(() => {
      const snap = this.snapshot();
      if (args.expected_revision !== undefined && args.expected_revision !== snap.revision) {
        throw capabilityError('allowlist_revision_mismatch', 'the allowlist changed since it was read', { expected_revision: args.expected_revision, revision: snap.revision });
      }
      const proposed = this.proposedOverlay(snap, args);
      const check = checkOverlay(snap.defaults, proposed.overlay ?? {});
      if (proposed.error !== undefined || !check.valid) {
        throw capabilityError('allowlist_validation_failed', proposed.error ?? check.reason, { reason: proposed.error ?? check.reason });
      }
      this.files.writeOverlay(proposed.overlay!);
      const next = this.snapshot();
      this.changed('all');
      return { updated: true as const, ...this.allowlistSnapshot(next), policy_source: 'merged', policy_error: next.overlayError };
    });
  }

  allowlistReset(args: { by?: string }): Promise<OpResult<'capability_allowlist_reset'>> {
    if (principal(args.by) !== 'user') throw capabilityError('permission_denied', 'only the user may reset the capability allowlist', { by: principal(args.by) });
    return this.writes.run(() => {
      const removed = this.files.removeOverlay();
      const snap = this.snapshot();
      if (removed) this.changed('all');
      return { reset: true as const, removed_overlay_file: removed, ...this.allowlistSnapshot(snap), ...this.policySources(snap) };
    });
  }

  // ---- writes ------------------------------------------------------------------------------

  async enable(args: Args<'capability_enable'>, group: GroupView): Promise<CapabilityEnableResult> {
    const by = this.caller(group, args.by);
    const actorId = this.targetActor(group, by, args.actor_id);
    const scope: EnableScope = args.scope ?? 'session';
    this.authorizeBinding(group, by, actorId, scope);
    const target = this.bindingTarget(group.group_id, actorId, scope, by, args.reason, args.ttl_seconds);
    return this.write((d) => (args.enabled === false ? this.disableIn(d, args.capability_id, target, args.cleanup === true) : this.enableIn(d, args.capability_id, target)));
  }

  async block(args: Args<'capability_block'>, group: GroupView): Promise<OpResult<'capability_block'>> {
    const by = this.caller(group, args.by);
    const role = roleOfPrincipal(group, by);
    const scope = args.scope ?? 'group';
    if (scope === 'global' && role !== 'user') throw capabilityError('permission_denied', 'only the user may block globally', { by, scope });
    if (scope === 'group' && role !== 'user' && role !== 'foreman') throw capabilityError('permission_denied', 'only the foreman or the user may block for the group', { by, scope });
    const blocked = args.blocked !== false;
    const gid = group.group_id;
    return this.write((d) => {
      if (blocked && !d.snap.catalog.has(args.capability_id)) throw capabilityError('capability_not_found', `unknown capability: ${args.capability_id}`, { capability_id: args.capability_id });
      const table = scope === 'global' ? d.state.blocked_global : (d.state.blocked_group[gid] ??= {});
      let removedBindings = 0;
      let removedRuntime = 0;
      let entry;
      if (blocked) {
        const now = this.now();
        entry = {
          by,
          blocked_at: new Date(now).toISOString(),
          ...(args.reason ? { reason: args.reason } : {}),
          ...(args.ttl_seconds ? { expires_at: new Date(now + args.ttl_seconds * 1000).toISOString() } : {}),
        };
        table[args.capability_id] = entry;
        removedBindings = revokeBindings(d.state, args.capability_id, scope === 'global' ? undefined : gid);
        removedRuntime = d.state.installations[args.capability_id] && !boundAnywhere(d.state, args.capability_id) ? 1 : 0;
      } else {
        delete table[args.capability_id];
      }
      return {
        action_id: actionId(),
        group_id: gid,
        actor_id: by,
        capability_id: args.capability_id,
        scope,
        blocked,
        state: blocked ? ('blocked' as const) : ('unblocked' as const),
        removed_bindings: removedBindings,
        removed_runtime_bindings: removedRuntime,
        refresh_required: true,
        ...REFRESH,
        ...(entry ? { block: entry } : {}),
      };
    }, scope === 'global' ? 'all' : [gid]);
  }

  async visibility(args: Args<'capability_visibility'>, group: GroupView): Promise<OpResult<'capability_visibility'>> {
    const by = this.caller(group, args.by);
    const actorId = args.actor_id ?? by;
    if (actorId !== 'user' && !group.actors.some((a) => a.id === actorId)) throw capabilityError('actor_not_found', `actor not found: ${actorId}`, { actor_id: actorId });
    const role = roleOfPrincipal(group, by);
    if (role !== 'user' && role !== 'foreman' && by !== actorId) throw capabilityError('permission_denied', 'an actor may only change its own menu', { by, actor_id: actorId });
    return this.write((d) => {
      const mine = ((d.state.hidden[group.group_id] ??= {})[actorId] ??= []);
      const next = new Set(mine);
      if (args.hidden) next.add(args.capability_id);
      else next.delete(args.capability_id);
      d.state.hidden[group.group_id]![actorId] = [...next].sort();
      return {
        action_id: actionId(),
        group_id: group.group_id,
        actor_id: actorId,
        capability_id: args.capability_id,
        hidden: args.hidden,
        actor_hidden_capabilities: d.state.hidden[group.group_id]![actorId]!,
        state: args.hidden ? ('hidden' as const) : ('visible' as const),
      };
    }, []);
  }

  async import(args: Args<'capability_import'>, group: GroupView): Promise<OpResult<'capability_import'>> {
    const by = this.caller(group, args.by);
    const actorId = this.targetActor(group, by, args.actor_id);
    const scope: EnableScope = args.scope ?? 'session';
    const enableAfter = args.enable_after_import === true && args.dry_run !== true;
    if (enableAfter) this.authorizeBinding(group, by, actorId, scope);
    const target = this.bindingTarget(group.group_id, actorId, scope, by, args.reason, args.ttl_seconds);
    const host = { env: this.env, hasBinary: pathLookup(this.env) };
    return this.write(async (d) => {
      const alreadyActive = exposureOf(d.snap, group, actorId, this.now(), this.limits.maxDynamicToolsVisible).active.has(args.record.capability_id);
      const outcome: ImportOutcome = importRecord(d.snap, args.record as CapabilityImportRecord, { dryRun: args.dry_run === true, probe: args.probe !== false, now: this.now(), host });
      if (outcome.persist) {
        d.imported[outcome.record.capability_id] = outcome.record;
        this.pruneCatalog(d);
      }
      let enableResult: CapabilityEnableResult | undefined;
      if (enableAfter && outcome.enableableNow) {
        const snap = buildSnapshot(d.snap.defaults, { overlay: d.snap.overlay, error: '' }, d.imported, d.state);
        enableResult = await this.enableIn({ ...d, snap }, outcome.record.capability_id, target);
      }
      const after = buildSnapshot(d.snap.defaults, { overlay: d.snap.overlay, error: '' }, d.imported, d.state);
      const activeAfter = !outcome.dryRun && exposureOf(after, group, actorId, this.now(), this.limits.maxDynamicToolsVisible).active.has(outcome.record.capability_id);
      const state = enableResult
        ? enableResult.state === 'disabled'
          ? 'blocked'
          : enableResult.state
        : outcome.state === 'enableable' && activeAfter
          ? 'runnable'
          : outcome.state;
      return {
        action_id: actionId(),
        group_id: group.group_id,
        actor_id: actorId,
        capability_id: outcome.record.capability_id,
        kind: outcome.record.kind,
        dry_run: outcome.dryRun,
        imported: !outcome.dryRun,
        scope,
        ...(outcome.importAction ? { import_action: outcome.importAction } : {}),
        ...(outcome.recordChanged !== undefined ? { record_changed: outcome.recordChanged } : {}),
        already_active: alreadyActive,
        active_after_import: activeAfter,
        record: recordView(outcome.record),
        probe: outcome.probe,
        diagnostics: outcome.diagnostics,
        effective_policy_level: outcome.level,
        enableable_now: outcome.enableableNow,
        ...(outcome.blockReason ? { enable_block_reason: outcome.blockReason } : {}),
        readiness_preview: activeAfter ? { preview_status: 'active' as const, next_step: 'already active; use it', already_active: true } : outcome.preview,
        enable_after_import: enableAfter,
        ...(enableResult ? { enable_result: enableResult } : {}),
        refresh_required: enableResult?.refresh_required ?? false,
        state,
        ...(outcome.reason ? { reason: outcome.reason } : {}),
      };
    });
  }

  async installTarget(args: Args<'capability_install_target'>, group: GroupView): Promise<OpResult<'capability_install_target'>> {
    const by = this.caller(group, args.by);
    const actorId = this.targetActor(group, by, args.actor_id);
    const scope: EnableScope = args.scope ?? 'actor';
    this.authorizeBinding(group, by, actorId, scope);
    const snap0 = this.snapshot();
    const resolved = await resolveInstallTarget(args.target, snap0, this.now(), this.limits.remoteTimeoutMs);
    const target = this.bindingTarget(group.group_id, actorId, scope, by, undefined, args.ttl_seconds);
    const { value: result, changed: committed } = await this.writeTracked(async (d) => {
      const before = canonicalJson(exposureOf(d.snap, group, actorId, this.now(), this.limits.maxDynamicToolsVisible).visibleTools);
      for (const record of resolved.records) {
        const prior = d.imported[record.capability_id];
        // A semantically unchanged reinstall keeps the stored record (and its sync time).
        if (!prior || canonicalJson(semanticRecord(prior)) !== canonicalJson(semanticRecord(record))) d.imported[record.capability_id] = record;
      }
      if (resolved.records.length > 0) this.pruneCatalog(d);
      const snap = buildSnapshot(d.snap.defaults, { overlay: d.snap.overlay, error: '' }, d.imported, d.state);
      const enabled: string[] = [];
      const ready: string[] = [];
      let needsSetup = false;
      for (const id of resolved.ids) {
        const result = await this.enableIn({ ...d, snap }, id, target);
        if (result.state === 'activation_pending' || result.state === 'runnable') {
          enabled.push(id);
          ready.push(id);
        } else needsSetup = true;
      }
      const after = buildSnapshot(d.snap.defaults, { overlay: d.snap.overlay, error: '' }, d.imported, d.state);
      const changed = before !== canonicalJson(exposureOf(after, group, actorId, this.now(), this.limits.maxDynamicToolsVisible).visibleTools) || enabled.length > 0;
      return {
        action_id: actionId(),
        group_id: group.group_id,
        actor_id: actorId,
        target: args.target,
        target_kind: resolved.kind,
        scope,
        installed_capability_ids: resolved.ids,
        enabled_capability_ids: enabled,
        use_ready_capability_ids: ready,
        requires_setup: needsSetup,
        refresh_required: changed,
        state: needsSetup ? ('needs_setup' as const) : ('ready' as const),
      };
    });
    if (!committed || !this.options.publishChange) return result;
    try {
      await this.options.publishChange(group.group_id, by, {
        action: 'install',
        actor_id: actorId,
        scope,
        target: args.target,
        target_kind: result.target_kind,
        capability_ids: result.installed_capability_ids,
        enabled_capability_ids: result.enabled_capability_ids,
      });
      return result;
    } catch (error) {
      return { ...result, event_publish_error: (error as Error).message || String(error) };
    }
  }

  async uninstall(args: Args<'capability_uninstall'>, group: GroupView): Promise<OpResult<'capability_uninstall'>> {
    const by = this.caller(group, args.by);
    const role = roleOfPrincipal(group, by);
    if (role !== 'user' && role !== 'foreman') throw capabilityError('permission_denied', 'only the foreman or the user may uninstall', { by });
    const gid = group.group_id;
    return this.write(async (d) => {
      if (!d.snap.catalog.has(args.capability_id)) throw capabilityError('capability_not_found', `unknown capability: ${args.capability_id}`, { capability_id: args.capability_id });
      const removedBindings = revokeBindings(d.state, args.capability_id, gid);
      const markers = (d.state.removed[gid] ??= []);
      const newMarker = !markers.includes(args.capability_id);
      if (newMarker) markers.push(args.capability_id);
      const { removed, skipped } = await this.cleanupInstallation(d, args.capability_id);
      return {
        action_id: actionId(),
        group_id: gid,
        actor_id: by,
        capability_id: args.capability_id,
        state: 'ready' as const,
        removed_record: false,
        removed_bindings: removedBindings,
        removed_group_marker: newMarker,
        removed_installation: removed,
        removed_runtime_bindings: removed ? 1 : 0,
        removed_actor_autoload: 0,
        removed_profile_autoload: 0,
        ...(skipped ? { cleanup_skipped_reason: 'cleanup_skipped_capability_still_bound' as const } : {}),
        refresh_required: removedBindings > 0 || newMarker,
        ...REFRESH,
      };
    }, [gid]);
  }

  async sourceDelete(args: Args<'capability_source_delete'>, group: GroupView): Promise<OpResult<'capability_source_delete'>> {
    const by = this.caller(group, args.by);
    const role = roleOfPrincipal(group, by);
    if (role !== 'user' && role !== 'foreman') throw capabilityError('permission_denied', 'only the foreman or the user may delete a source', { by });
    if (!(REMOVABLE_SOURCES as readonly string[]).includes(args.source_id)) {
      throw capabilityError('protected_capability_source', `source ${args.source_id} is not a removable import source`, { source_id: args.source_id, removable: [...REMOVABLE_SOURCES] });
    }
    return this.write(async (d) => {
      const ids = Object.values(d.imported)
        .filter((r) => r.source_id === args.source_id)
        .map((r) => r.capability_id)
        .sort();
      let runtime = 0;
      let installs = 0;
      for (const id of ids) {
        runtime += revokeBindings(d.state, id);
        delete d.imported[id];
        for (const markers of Object.values(d.state.removed)) if (markers.includes(id)) markers.splice(markers.indexOf(id), 1);
        if ((await this.cleanupInstallation(d, id)).removed) installs += 1;
      }
      return {
        group_id: group.group_id,
        actor_id: by,
        source_id: args.source_id,
        removed_records: ids.length,
        removed_capability_ids: ids,
        removed_runtime_bindings: runtime,
        removed_installations: installs,
        removed_actor_autoload: 0,
        removed_profile_autoload: 0,
      };
    }, 'all');
  }

  async toolCall(args: Args<'capability_tool_call'>, group: GroupView): Promise<OpResult<'capability_tool_call'>> {
    const by = this.caller(group, args.by);
    const actorId = this.targetActor(group, by, args.actor_id);
    const snap = this.snapshot();
    const exposure = exposureOf(snap, group, actorId, this.now(), this.limits.maxDynamicToolsVisible);
    const tool = exposure.dynamicTools.find((t) => t.name === args.tool_name);
    if (!tool) throw capabilityError('capability_tool_not_found', `no dynamic tool ${args.tool_name} is visible to ${actorId}`, { tool_name: args.tool_name, actor_id: actorId });
    const record = snap.catalog.get(tool.capability_id)!;
    const installation = snap.state.installations[tool.capability_id]!;
    if (!this.options.external) throw capabilityError('capability_tool_call_failed', 'no external MCP runtime is configured', { tool_name: args.tool_name });
    const result = await this.options.external.callTool(record, installation, tool.real_tool_name, args.arguments ?? {});
    return { tool_name: args.tool_name, capability_id: tool.capability_id, result };
  }

  async close(): Promise<void> {
    await this.options.external?.close();
  }

  // ---- internals ---------------------------------------------------------------------------

  private async enableIn(d: Draft, capabilityId: string, target: BindingTarget): Promise<CapabilityEnableResult> {
    const record = d.snap.catalog.get(capabilityId);
    if (!record) throw capabilityError('capability_not_found', `unknown capability: ${capabilityId}`, { capability_id: capabilityId });
    const base = { action_id: actionId(), group_id: target.groupId, actor_id: target.actorId, capability_id: capabilityId, scope: target.scope };
    const refusal = enableRefusal(d.snap, d.state, record, target, this.limits);
    if (refusal) return { ...base, enabled: false, refresh_required: false, ...refusal };
    const policyLevel = recordPolicy(d.snap.policy, record).level;
    const external = record.kind === 'mcp_toolpack' && record.install_mode !== 'builtin';
    let install: { install_state?: 'installed' | 'installed_degraded' } = {};
    if (external) {
      const installed = await this.ensureInstalled(d, record);
      if (!installed.ok) return { ...base, enabled: false, refresh_required: false, policy_level: policyLevel, ...installed.result, state: installed.result.state ?? 'blocked' };
      install = { install_state: installed.state };
    }
    bind(d.state, capabilityId, target);
    if (record.kind === 'skill') {
      const applied: string[] = [];
      const skipped: Array<{ capability_id: string; reason: string }> = [];
      for (const dep of record.requires_capabilities ?? []) {
        const depRecord = d.snap.catalog.get(dep);
        if (!depRecord) skipped.push({ capability_id: dep, reason: 'capability_not_found' });
        else if (depRecord.kind === 'mcp_toolpack' && depRecord.install_mode !== 'builtin') skipped.push({ capability_id: dep, reason: 'external_dependency_requires_explicit_enable' });
        else {
          const why = enableRefusal(d.snap, d.state, depRecord, target, this.limits);
          if (why) skipped.push({ capability_id: dep, reason: why.reason ?? why.state });
          else {
            bind(d.state, dep, target);
            applied.push(dep);
          }
        }
      }
      const changesTools = applied.some((dep) => d.snap.catalog.get(dep)?.tool_names?.length);
      return {
        ...base,
        enabled: true,
        state: 'runnable',
        refresh_required: changesTools,
        ...(changesTools ? REFRESH : {}),
        policy_level: policyLevel,
        skill: {
          capability_id: capabilityId,
          name: record.name,
          description_short: record.description_short,
          ...(record.capsule_text ? { capsule: record.capsule_text } : {}),
          requires_capabilities: record.requires_capabilities ?? [],
          applied_dependencies: applied,
          skipped_dependencies: skipped,
          source_id: record.source_id,
          ...(record.source_uri ? { source_uri: record.source_uri } : {}),
        },
      };
    }
    return { ...base, enabled: true, state: 'activation_pending', refresh_required: true, ...REFRESH, policy_level: policyLevel, ...install };
  }

  private async disableIn(d: Draft, capabilityId: string, target: BindingTarget, cleanup: boolean): Promise<CapabilityEnableResult> {
    const removed = unbind(d.state, capabilityId, target);
    const record = d.snap.catalog.get(capabilityId);
    let cleaned = { removed: false, skipped: false };
    if (cleanup) cleaned = await this.cleanupInstallation(d, capabilityId);
    const toolsChange = removed > 0 && record?.kind === 'mcp_toolpack';
    return {
      action_id: actionId(),
      group_id: target.groupId,
      actor_id: target.actorId,
      capability_id: capabilityId,
      scope: target.scope,
      enabled: false,
      state: 'disabled',
      refresh_required: toolsChange,
      ...(toolsChange ? REFRESH : {}),
      removed_binding_count: removed,
      removed_installation: cleaned.removed,
      ...(cleaned.skipped ? { cleanup_skipped_reason: 'cleanup_skipped_capability_still_bound' } : {}),
    };
  }

  private async ensureInstalled(d: Draft, record: CapabilityRecord): Promise<{ ok: true; state: 'installed' | 'installed_degraded' } | { ok: false; result: Partial<CapabilityEnableResult> }> {
    const existing = d.state.installations[record.capability_id];
    if (existing && existing.install_state !== 'install_failed') return { ok: true, state: existing.install_state };
    const check = preflight(record, { env: this.env, hasBinary: pathLookup(this.env) });
    if (!check.ok) {
      return {
        ok: false,
        result: {
          state: 'blocked',
          reason: `preflight_failed:${check.code}`,
          retryable: check.code === 'missing_required_env' || check.code === 'missing_binary',
          preflight: { ...check },
          ...(check.required_env ? { required_env: check.required_env } : {}),
          ...(check.missing_binaries ? { missing_binaries: check.missing_binaries } : {}),
          diagnostics: [{ code: check.code, message: check.message, ...(check.required_env ? { required_env: check.required_env } : {}) }],
        },
      };
    }
    const installed = Object.values(d.state.installations).filter((i) => i.install_state !== 'install_failed').length;
    if (installed >= this.limits.maxInstallationsTotal) return { ok: false, result: { state: 'failed', reason: 'quota_exceeded:max_installations_total', retryable: false } };
    if (!this.options.external) {
      return { ok: false, result: { state: 'blocked', reason: 'preflight_failed:external_runtime_unavailable', retryable: false } };
    }
    const artifactDir = join(this.paths.cacheDir, artifactIdOf(record.capability_id));
    const installation = await this.options.external.install(record, artifactDir);
    d.state.installations[record.capability_id] = installation;
    if (installation.install_state === 'install_failed') {
      return {
        ok: false,
        result: {
          state: 'blocked',
          reason: `install_failed:${installation.last_error_code ?? 'unknown'}`,
          error: installation.last_error ?? '',
          install_state: 'install_failed',
          install_error_code: installation.last_error_code ?? 'unknown',
          retryable: true,
        },
      };
    }
    return { ok: true, state: installation.install_state };
  }

  private async cleanupInstallation(d: Draft, capabilityId: string): Promise<{ removed: boolean; skipped: boolean }> {
    const installation = d.state.installations[capabilityId];
    if (!installation) return { removed: false, skipped: false };
    if (boundAnywhere(d.state, capabilityId)) return { removed: false, skipped: true };
    delete d.state.installations[capabilityId];
    await this.options.external?.uninstall(installation);
    return { removed: true, skipped: false };
  }

  /** Keep at most catalogMaxRecords imported records: the oldest unbound ones go first. */
  private pruneCatalog(d: Draft): void {
    const records = Object.values(d.imported);
    const excess = records.length - this.limits.catalogMaxRecords;
    if (excess <= 0) return;
    const victims = records
      .filter((r) => !boundAnywhere(d.state, r.capability_id))
      .sort((a, b) => (a.synced_at ?? '').localeCompare(b.synced_at ?? '') || a.capability_id.localeCompare(b.capability_id))
      .slice(0, excess);
    for (const r of victims) delete d.imported[r.capability_id];
  }

  /** Run a change under the write queue; persist state/catalog only if they changed. */
  private async write<T>(change: (d: Draft) => T | Promise<T>, notify: readonly string[] | 'all' = 'all'): Promise<T> {
    return (await this.writeTracked(change, notify)).value;
  }

  /** `write`, also telling whether anything was committed. */
  private writeTracked<T>(change: (d: Draft) => T | Promise<T>, notify: readonly string[] | 'all' = 'all'): Promise<{ value: T; changed: boolean }> {
    return this.writes.run(async () => {
      const state = this.files.readState();
      const pruned = pruneExpired(state, this.now());
      const imported = this.files.readCatalog();
      const snap = buildSnapshot(defaultAllowlist(), this.files.readOverlay(), imported, structuredClone(state));
      const beforeState = canonicalJson(snap.state);
      const beforeCatalog = canonicalJson(imported);
      const draft: Draft = { snap, state: structuredClone(state), imported: structuredClone(imported) };
      const result = await change(draft);
      const stateChanged = pruned || canonicalJson(draft.state) !== beforeState;
      const catalogChanged = canonicalJson(draft.imported) !== beforeCatalog;
      if (catalogChanged) this.files.writeCatalog(draft.imported);
      if (stateChanged) this.files.writeState(draft.state);
      if (stateChanged || catalogChanged) this.changed(notify);
      // Expiry pruning alone is bookkeeping, not a change made by this request.
      return { value: result, changed: canonicalJson(draft.state) !== beforeState || catalogChanged };
    });
  }

  private changed(groups: readonly string[] | 'all'): void {
    if (groups !== 'all' && groups.length === 0) return;
    for (const listener of this.listeners) listener(groups);
  }

  private caller(group: GroupView, by: string | undefined): string {
    const who = principal(by);
    if (!roleOfPrincipal(group, who)) throw capabilityError('permission_denied', `${who} is not a member of this group`, { by: who });
    return who;
  }

  /** The actor a request is about: actor_id, else the calling actor, else the user. */
  private targetActor(group: GroupView, by: string, actorId: string | undefined): string {
    const target = actorId?.trim() || (roleOfPrincipal(group, by) === 'user' ? 'user' : by);
    if (target !== 'user' && !group.actors.some((a) => a.id === target)) throw capabilityError('actor_not_found', `actor not found: ${target}`, { actor_id: target });
    return target;
  }

  private authorizeBinding(group: GroupView, by: string, actorId: string, scope: EnableScope): void {
    const role: CallerRole | undefined = roleOfPrincipal(group, by);
    if (role === 'user' || role === 'foreman') return;
    if (scope === 'group') throw capabilityError('permission_denied', 'only the foreman or the user may enable for the whole group', { by, scope });
    if (by !== actorId) throw capabilityError('permission_denied', 'a peer may only change its own capabilities', { by, actor_id: actorId });
  }

  private bindingTarget(groupId: string, actorId: string, scope: EnableScope, by: string, reason: string | undefined, ttl: number | undefined): BindingTarget {
    return { groupId, actorId, scope, by, ...(reason ? { reason } : {}), ttlSeconds: ttl && ttl > 0 ? ttl : this.limits.defaultSessionTtlSeconds, now: this.now() };
  }

  private proposedOverlay(snap: CapabilitySnapshot, args: { mode?: 'patch' | 'replace' | undefined; patch?: Record<string, unknown> | undefined; overlay?: Record<string, unknown> | undefined }): { overlay?: Record<string, unknown>; error?: string } {
    const mode = args.mode ?? 'patch';
    if (mode === 'replace') return args.overlay ? { overlay: args.overlay } : { error: 'overlay is required when mode=replace' };
    return args.patch ? { overlay: applyMergePatch(snap.overlay, args.patch) } : { error: 'patch is required when mode=patch' };
  }

  private allowlistSnapshot(snap: CapabilitySnapshot) {
    return { default: snap.defaults, overlay: snap.overlay, effective: snap.effective, revision: snap.revision, external_capability_safety_mode: snap.policy.external_capability_safety_mode };
  }

  private policySources(snap: CapabilitySnapshot) {
    return { default_source: 'packaged:capability-allowlist.default.yaml', overlay_source: this.paths.overlayPath, overlay_error: snap.overlayError, policy_source: 'merged', policy_error: '' };
  }
}

function safetyMode(effective: Record<string, unknown>): 'normal' | 'conservative' {
  return effective.external_capability_safety_mode === 'conservative' ? 'conservative' : 'normal';
}

export function actionId(): string {
  return `ca_${randomBytes(6).toString('hex')}`;
}

/** The cache directory name of a capability's artifact (stable, filesystem-safe). */
export function artifactIdOf(capabilityId: string): string {
  return `a_${shortHash(capabilityId, 16)}`;
}

function matches(record: CapabilityRecord, query: string): boolean {
  if (!query) return true;
  const hay = [record.capability_id, record.name, record.description_short, ...record.tags, ...(record.tool_names ?? [])].join(' ').toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => hay.includes(word));
}

function passes(record: CapabilityRecord, f: { kind: string; source_id: string; trust_tier: string; qualification_status: string }): boolean {
  return (!f.kind || record.kind === f.kind) && (!f.source_id || record.source_id === f.source_id) && (!f.trust_tier || record.trust_tier === f.trust_tier) && (!f.qualification_status || record.qualification_status === f.qualification_status);
}

function score(item: { capability_id: string; name: string }, query: string): number {
  if (!query) return 0;
  const q = query.toLowerCase();
  return (item.capability_id.toLowerCase().includes(q) ? 2 : 0) + (item.name.toLowerCase().includes(q) ? 1 : 0);
}
