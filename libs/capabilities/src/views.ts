import { recordPolicy } from './policy.js';
import type { CapabilityRecord } from './records.js';
import type { CapabilitySnapshot } from './snapshot.js';
import { SKILL_SOURCE_IDS } from './remote-skills.js';

/** A record as read results show it: server env values replaced by their names only. */
export function recordView(record: CapabilityRecord): Record<string, unknown> {
  const { synced_at: _synced, install_spec, ...rest } = record;
  if (!install_spec) return rest;
  const { env, ...spec } = install_spec;
  const envKeys = env && typeof env === 'object' ? Object.keys(env).sort() : undefined;
  return { ...rest, install_spec: envKeys ? { ...spec, env_keys: envKeys } : spec };
}

const opt = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as { [P in K]: V }));

export function overviewItem(snap: CapabilitySnapshot, record: CapabilityRecord) {
  const policy = recordPolicy(snap.policy, record);
  const globalBlock = snap.state.blocked_global[record.capability_id];
  const installation = snap.state.installations[record.capability_id];
  const agentSkill = record.source_id === 'agent_self_proposed' && record.kind === 'skill';
  return {
    capability_id: record.capability_id,
    kind: record.kind,
    name: record.name,
    description_short: record.description_short,
    source_id: record.source_id,
    ...opt('source_uri', record.source_uri),
    source_tier: record.source_tier,
    trust_tier: record.trust_tier,
    ...opt('license', record.license),
    sync_state: 'fresh',
    policy_level: policy.level,
    policy_visible: policy.visible,
    blocked_global: globalBlock !== undefined,
    ...opt('blocked_reason', globalBlock ? (globalBlock.reason ?? 'blocked_global') : undefined),
    enable_supported: policy.enableSupported,
    qualification_status: record.qualification_status,
    ...(agentSkill ? { qualification_reasons: record.qualification_reasons ?? [], ...opt('capsule_text', record.capsule_text) } : {}),
    ...opt('install_mode', record.install_mode),
    autoload_candidate: policy.enableSupported,
    tags: record.tags,
    ...(record.tool_names ? { tool_count: record.tool_names.length, tool_names: record.tool_names } : {}),
    ...(installation
      ? {
          tool_count: installation.tools.length,
          tool_names: installation.tools.map((t) => t.name),
          cached_install_state: installation.install_state,
          ...opt('cached_install_error_code', installation.last_error_code),
          ...opt('cached_install_error', installation.last_error),
        }
      : {}),
  };
}

export function searchItem(snap: CapabilitySnapshot, record: CapabilityRecord, enabled: boolean, blockedReason: string | undefined) {
  const policy = recordPolicy(snap.policy, record);
  const hint = blockedReason ? 'blocked' : enabled ? 'active' : policy.enableSupported ? 'enable_now' : 'unsupported';
  const preview =
    hint === 'blocked'
      ? { preview_status: 'blocked' as const, next_step: `unblock ${record.capability_id} first (${blockedReason})` }
      : hint === 'active'
        ? { preview_status: 'active' as const, next_step: 'already active; use it', already_active: true }
        : hint === 'enable_now'
          ? { preview_status: 'enableable' as const, next_step: `capability_enable ${record.capability_id}` }
          : { preview_status: 'needs_inspect' as const, next_step: policy.blockReason ?? 'inspect the record' };
  return {
    capability_id: record.capability_id,
    kind: record.kind,
    name: record.name,
    description_short: record.description_short,
    source_id: record.source_id,
    source_tier: record.source_tier,
    ...opt('source_uri', record.source_uri),
    trust_tier: record.trust_tier,
    ...opt('license', record.license),
    qualification_status: record.qualification_status,
    sync_state: 'fresh',
    enabled,
    enable_supported: policy.enableSupported,
    ...opt('install_mode', record.install_mode),
    policy_level: policy.level,
    enable_hint: hint as 'enable_now' | 'blocked' | 'unsupported' | 'active',
    ...opt('blocked_reason', blockedReason),
    readiness_preview: preview,
    tags: record.tags,
    ...(record.tool_names ? { tool_count: record.tool_names.length, tool_names: record.tool_names } : {}),
  };
}

/** Sources asked only during a search (never synced): their records are a cache of past hits. */
const ON_DEMAND = new Set(['mcp_registry_official', ...SKILL_SOURCE_IDS]);

export function sourceStates(snap: CapabilitySnapshot, now: number) {
  const counts = new Map<string, number>();
  for (const record of snap.catalog.values()) counts.set(record.source_id, (counts.get(record.source_id) ?? 0) + 1);
  const out: Record<string, { source_id: string; enabled: boolean; source_level: ReturnType<typeof recordPolicy>['level']; rationale?: string; sync_state: string; staleness_seconds: number; record_count: number }> = {};
  for (const source of snap.policy.sources) {
    out[source.source_id] = {
      source_id: source.source_id,
      enabled: source.enabled,
      source_level: snap.policy.defaults.source_level[source.source_id] ?? 'indexed',
      ...opt('rationale', source.rationale),
      sync_state: ON_DEMAND.has(source.source_id) ? 'on_demand' : 'fresh',
      staleness_seconds: 0,
      record_count: counts.get(source.source_id) ?? 0,
    };
  }
  void now;
  return out;
}
