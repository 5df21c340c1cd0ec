import type { CapabilityImportRecord, PolicyLevel } from '@cccc/ipc-protocol';
import { canonicalJson } from './canonical.js';
import { capabilityError } from './errors.js';
import { recordPolicy, type RecordPolicy } from './policy.js';
import { preflight, type PreflightEnv } from './preflight.js';
import { BUILTIN_SOURCE, CURATED_SOURCE, semanticRecord, type CapabilityRecord } from './records.js';
import type { CapabilitySnapshot } from './snapshot.js';

// capability_import (spec §8.3): normalize, validate and probe one caller-prepared record. Pure
// apart from the PATH lookup of the probe; the service decides whether to persist.

export const SELF_PROPOSED_SECTIONS = ['When to use', 'Avoid when', 'Procedure', 'Pitfalls', 'Verification'] as const;

export interface ImportOutcome {
  readonly record: CapabilityRecord;
  readonly persist: boolean;
  readonly dryRun: boolean;
  readonly importAction?: 'created' | 'updated' | 'unchanged';
  readonly recordChanged?: boolean;
  readonly probe: { state: 'runnable' | 'failed' | 'skipped'; kind: 'mcp_toolpack' | 'skill'; reason?: string; install_error_code?: string };
  readonly diagnostics: Array<{ code: string; message: string; retryable?: boolean; required_env?: string[] }>;
  readonly level: PolicyLevel;
  readonly enableableNow: boolean;
  readonly blockReason?: RecordPolicy['blockReason'];
  readonly preview: { preview_status: 'blocked' | 'enableable' | 'active' | 'needs_inspect'; next_step: string };
  readonly state: 'blocked' | 'enableable' | 'needs_inspect';
  readonly reason?: string;
}

export interface ImportOptions {
  readonly dryRun: boolean;
  readonly probe: boolean;
  readonly now: number;
  readonly host: PreflightEnv;
}

const invalid = (message: string, field: string) => capabilityError('invalid_request', message, { field });

function normalizeSource(snap: CapabilitySnapshot, sourceId: string | undefined): string {
  const id = sourceId?.trim() ?? '';
  if (!id || id === BUILTIN_SOURCE || id === CURATED_SOURCE) return 'manual_import';
  return snap.policy.sources.some((s) => s.source_id === id) ? id : 'manual_import';
}

const firstCommand = (value: unknown): unknown => (Array.isArray(value) ? value[0] : undefined);

export function normalizeImport(snap: CapabilitySnapshot, input: CapabilityImportRecord, now: number): CapabilityRecord {
  const prefix = input.kind === 'skill' ? 'skill:' : 'mcp:';
  if (!input.capability_id.startsWith(prefix)) throw invalid(`a ${input.kind} capability_id starts with ${prefix}`, 'record.capability_id');
  const existing = snap.catalog.get(input.capability_id);
  if (existing && (existing.source_id === BUILTIN_SOURCE || existing.source_id === CURATED_SOURCE)) {
    throw invalid(`${input.capability_id} is a built-in or curated record`, 'record.capability_id');
  }
  const sourceId = normalizeSource(snap, input.source_id);
  let installSpec: Record<string, unknown> | undefined;
  if (input.kind === 'mcp_toolpack') {
    const spec: Record<string, unknown> = { ...(input.install_spec ?? {}) };
    installSpec = spec;
    const command = input.command ?? firstCommand(input.command_candidates);
    if (spec.command === undefined && command !== undefined) spec.command = command;
    const fallback = input.fallback_command ?? firstCommand(input.fallback_command_candidates);
    if (spec.fallback_command === undefined && fallback !== undefined) spec.fallback_command = fallback;
    if (!input.install_mode) throw invalid('an mcp_toolpack record needs install_mode', 'record.install_mode');
    if (Object.keys(spec).length === 0) throw invalid('an mcp_toolpack record needs install_spec', 'record.install_spec');
  } else {
    if (!input.capsule_text?.trim()) throw invalid('a skill record needs capsule_text', 'record.capsule_text');
    if (sourceId === 'agent_self_proposed' && !/^skill:agent_self_proposed:[a-z0-9][a-z0-9._-]*$/.test(input.capability_id)) {
      throw invalid('agent_self_proposed skills use skill:agent_self_proposed:<stable-slug>', 'record.capability_id');
    }
  }
  return {
    capability_id: input.capability_id,
    kind: input.kind,
    name: input.name?.trim() || input.capability_id,
    description_short: input.description_short ?? '',
    source_id: sourceId,
    source_tier: input.source_tier ?? 'imported',
    ...(input.source_uri ? { source_uri: input.source_uri } : {}),
    ...(input.source_record_id ? { source_record_id: input.source_record_id } : {}),
    ...(input.source_record_version ? { source_record_version: input.source_record_version } : {}),
    ...(input.updated_at_source ? { updated_at_source: input.updated_at_source } : {}),
    trust_tier: input.trust_tier ?? 'unverified',
    ...(input.license ? { license: input.license } : {}),
    qualification_status: input.qualification_status ?? 'qualified',
    ...(input.qualification_reasons ? { qualification_reasons: input.qualification_reasons } : {}),
    tags: input.tags ?? [],
    ...(input.kind === 'mcp_toolpack' ? { install_mode: input.install_mode!, install_spec: installSpec! } : {}),
    ...(input.kind === 'skill' ? { capsule_text: input.capsule_text!, requires_capabilities: input.requires_capabilities ?? [] } : {}),
    synced_at: new Date(now).toISOString(),
  };
}

export function missingSections(capsule: string): string[] {
  const text = capsule.toLowerCase();
  return SELF_PROPOSED_SECTIONS.filter((s) => !text.includes(s.toLowerCase()));
}

export function importRecord(snap: CapabilitySnapshot, input: CapabilityImportRecord, options: ImportOptions): ImportOutcome {
  const record = normalizeImport(snap, input, options.now);
  const diagnostics: ImportOutcome['diagnostics'] = [];
  const selfProposedSkill = record.source_id === 'agent_self_proposed' && record.kind === 'skill';
  const missing = selfProposedSkill ? missingSections(record.capsule_text ?? '') : [];
  if (missing.length > 0) {
    if (!options.dryRun) throw invalid(`agent_self_proposed capsule is missing sections: ${missing.join(', ')}`, 'record.capsule_text');
    diagnostics.push({ code: 'capsule_sections_missing', message: `missing sections: ${missing.join(', ')}` });
  }
  let probe: ImportOutcome['probe'] = { state: 'skipped', kind: record.kind };
  if (options.probe) {
    if (record.kind === 'skill') probe = { state: 'runnable', kind: 'skill' };
    else {
      const check = preflight(record, options.host);
      probe = check.ok ? { state: 'runnable', kind: 'mcp_toolpack' } : { state: 'failed', kind: 'mcp_toolpack', reason: `preflight_failed:${check.code}`, install_error_code: check.code };
      if (!check.ok) diagnostics.push({ code: check.code, message: check.message, retryable: true, ...(check.required_env ? { required_env: check.required_env } : {}) });
    }
  }
  const prior = snap.imported[record.capability_id];
  const changed = prior ? canonicalJson(semanticRecord(prior)) !== canonicalJson(semanticRecord(record)) : undefined;
  const importAction = prior ? (changed ? 'updated' : 'unchanged') : 'created';
  const policy = recordPolicy(snap.policy, record);
  const needsInspect = probe.state === 'failed' || missing.length > 0;
  const state = !policy.enableSupported ? 'blocked' : needsInspect ? 'needs_inspect' : 'enableable';
  const preview =
    state === 'blocked'
      ? { preview_status: 'blocked' as const, next_step: policy.blockReason ?? 'blocked' }
      : state === 'needs_inspect'
        ? { preview_status: 'needs_inspect' as const, next_step: diagnostics[0]?.message ?? 'inspect the record' }
        : { preview_status: 'enableable' as const, next_step: `capability_enable ${record.capability_id}` };
  return {
    record: prior && !changed ? prior : record,
    persist: !options.dryRun && (importAction !== 'unchanged'),
    dryRun: options.dryRun,
    ...(options.dryRun ? {} : { importAction }),
    ...(prior && !options.dryRun ? { recordChanged: changed } : {}),
    probe,
    diagnostics,
    level: policy.level,
    enableableNow: policy.enableSupported && !needsInspect,
    ...(policy.blockReason ? { blockReason: policy.blockReason } : {}),
    preview,
    state,
    ...(state === 'blocked' ? { reason: policy.blockReason } : needsInspect ? { reason: probe.reason ?? 'capsule_sections_missing' } : {}),
  };
}
