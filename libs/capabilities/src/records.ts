import { z } from 'zod';
import { CapabilityKind, QualificationStatus } from '@cccc/ipc-protocol';
import type { PolicyDoc } from './allowlist.js';

/** One catalog record, whatever its source. Built-in packs carry `tool_names` and install_mode `builtin`. */
export const CapabilityRecord = z.object({
  capability_id: z.string().min(1),
  kind: CapabilityKind,
  name: z.string(),
  description_short: z.string().default(''),
  source_id: z.string(),
  source_tier: z.string(),
  source_uri: z.string().optional(),
  source_record_id: z.string().optional(),
  source_record_version: z.string().optional(),
  updated_at_source: z.string().optional(),
  trust_tier: z.string(),
  license: z.string().optional(),
  qualification_status: QualificationStatus.default('qualified'),
  qualification_reasons: z.array(z.string()).optional(),
  tags: z.array(z.string()).default([]),
  tool_names: z.array(z.string()).optional(),
  install_mode: z.enum(['builtin', 'remote_only', 'package', 'command']).optional(),
  install_spec: z.record(z.string(), z.unknown()).optional(),
  capsule_text: z.string().optional(),
  requires_capabilities: z.array(z.string()).optional(),
  /** When this daemon last wrote the record (not part of its semantic identity). */
  synced_at: z.string().optional(),
});
export type CapabilityRecord = z.output<typeof CapabilityRecord>;

export const BUILTIN_SOURCE = 'cccc_builtin';
export const CURATED_SOURCE = 'cccc_curated';
export const REMOVABLE_SOURCES = ['manual_import', 'agent_self_proposed', 'github_import', 'url_import', 'local_import'] as const;

/** The records the policy itself defines: built-in packs, then curated records. */
export function policyRecords(policy: PolicyDoc): CapabilityRecord[] {
  const packs = policy.builtin_packs.map(
    (pack): CapabilityRecord => ({
      capability_id: pack.capability_id,
      kind: 'mcp_toolpack',
      name: pack.name,
      description_short: pack.description_short,
      source_id: BUILTIN_SOURCE,
      source_tier: 'builtin',
      trust_tier: 'high',
      qualification_status: 'qualified',
      tags: pack.tags,
      tool_names: pack.tools,
      install_mode: 'builtin',
    }),
  );
  const curated = policy.curated_records.map(
    (rec): CapabilityRecord => ({
      capability_id: rec.capability_id,
      kind: rec.kind,
      name: rec.name,
      description_short: rec.description_short,
      source_id: CURATED_SOURCE,
      source_tier: 'curated',
      ...(rec.source_uri ? { source_uri: rec.source_uri } : {}),
      trust_tier: rec.trust_tier ?? 'medium',
      ...(rec.license ? { license: rec.license } : {}),
      qualification_status: 'qualified',
      tags: rec.tags,
      ...(rec.install_mode ? { install_mode: rec.install_mode } : {}),
      ...(rec.install_spec ? { install_spec: rec.install_spec } : {}),
      ...(rec.capsule_text ? { capsule_text: rec.capsule_text } : {}),
      ...(rec.requires_capabilities ? { requires_capabilities: rec.requires_capabilities } : {}),
    }),
  );
  return [...packs, ...curated];
}

/** A record without its local bookkeeping: what import compares to say created/updated/unchanged. */
export function semanticRecord(record: CapabilityRecord): Omit<CapabilityRecord, 'synced_at'> {
  const { synced_at: _synced, ...rest } = record;
  return rest;
}
