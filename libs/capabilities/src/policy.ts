import type { PolicyLevel } from '@cccc/ipc-protocol';
import type { PolicyDoc } from './allowlist.js';
import { BUILTIN_SOURCE, type CapabilityRecord } from './records.js';

// What the effective policy says about one record. Pure.

export interface RecordPolicy {
  readonly level: PolicyLevel;
  /** Shown in ordinary search and enable-able: level above indexed and its source enabled. */
  readonly visible: boolean;
  readonly enableSupported: boolean;
  /** Why enable is refused by policy, when it is. */
  readonly blockReason?: 'policy_level_indexed' | 'qualification_blocked' | 'capability_unavailable';
}

export function sourceEnabled(policy: PolicyDoc, sourceId: string): boolean {
  const source = policy.sources.find((s) => s.source_id === sourceId);
  return source ? source.enabled : true;
}

export function levelOf(policy: PolicyDoc, record: Pick<CapabilityRecord, 'capability_id' | 'source_id' | 'kind'>): PolicyLevel {
  const override = policy.capability_overrides.find((o) => o.capability_id === record.capability_id);
  if (override) return override.level;
  if (!sourceEnabled(policy, record.source_id)) return 'indexed';
  if (policy.external_capability_safety_mode === 'conservative' && record.source_id !== BUILTIN_SOURCE) return 'indexed';
  // Spec §8.3 import note 7: agent-proposed capsule skills are mounted, its toolpacks stay indexed.
  if (record.source_id === 'agent_self_proposed' && record.kind === 'skill') return 'mounted';
  return policy.defaults.source_level[record.source_id] ?? 'indexed';
}

/** `package` records are allowed per registry (`package:npm`); the others by their mode name. */
export function installModeAllowed(policy: PolicyDoc, record: CapabilityRecord): boolean {
  if (record.kind === 'skill' || record.install_mode === 'builtin') return true;
  if (!record.install_mode) return false;
  const allow = policy.defaults.install_mode_allowlist;
  if (record.install_mode === 'package') return allow.includes(`package:${String(record.install_spec?.registry ?? 'npm')}`);
  return allow.includes(record.install_mode);
}

export function recordPolicy(policy: PolicyDoc, record: CapabilityRecord): RecordPolicy {
  const level = levelOf(policy, record);
  const visible = level !== 'indexed';
  if (!visible) return { level, visible, enableSupported: false, blockReason: 'policy_level_indexed' };
  if (record.qualification_status === 'blocked') return { level, visible, enableSupported: false, blockReason: 'qualification_blocked' };
  if (record.qualification_status === 'unavailable' || !installModeAllowed(policy, record)) {
    return { level, visible, enableSupported: false, blockReason: 'capability_unavailable' };
  }
  return { level, visible, enableSupported: true };
}
