import { z } from 'zod';
import { PolicyLevel } from '@cccc/ipc-protocol';
import { isPlainObject, shortHash } from './canonical.js';

// The allowlist policy: a packaged default document and a user overlay, merged deterministically
// (mappings key by key, everything else replaced by the overlay). Pure: no files here.

const CommandSpec = z.union([z.string(), z.array(z.string())]);

export const PackDef = z.object({
  capability_id: z.string().regex(/^pack:[a-z0-9][a-z0-9_-]*$/),
  name: z.string().min(1),
  description_short: z.string().default(''),
  tools: z.array(z.string().regex(/^cccc_[a-z0-9_]+$/)).min(1),
  tags: z.array(z.string()).default([]),
});
export type PackDef = z.infer<typeof PackDef>;

export const CuratedRecord = z.object({
  capability_id: z.string().regex(/^(skill|mcp):/),
  kind: z.enum(['mcp_toolpack', 'skill']),
  name: z.string().min(1),
  description_short: z.string().default(''),
  tags: z.array(z.string()).default([]),
  trust_tier: z.string().optional(),
  license: z.string().optional(),
  source_uri: z.string().optional(),
  capsule_text: z.string().optional(),
  requires_capabilities: z.array(z.string()).optional(),
  install_mode: z.enum(['remote_only', 'package', 'command']).optional(),
  install_spec: z.record(z.string(), z.unknown()).optional(),
  command: CommandSpec.optional(),
});
export type CuratedRecord = z.infer<typeof CuratedRecord>;

/** The effective policy document, as much of it as this implementation reads (other keys pass). */
export const PolicyDoc = z.looseObject({
  schema_version: z.literal(1),
  external_capability_safety_mode: z.enum(['normal', 'conservative']).default('normal'),
  defaults: z
    .looseObject({
      source_level: z.record(z.string(), PolicyLevel).default({}),
      install_mode_allowlist: z.array(z.string()).default([]),
    })
    .default({ source_level: {}, install_mode_allowlist: [] }),
  sources: z.array(z.looseObject({ source_id: z.string().min(1), enabled: z.boolean().default(true), rationale: z.string().optional() })).default([]),
  capability_overrides: z
    .array(z.looseObject({ capability_id: z.string().min(1), level: PolicyLevel, trust: z.string().optional() }))
    .nullish()
    .transform((v) => v ?? []),
  base_tools: z.array(z.string()).default([]),
  role_defaults: z.object({ foreman: z.array(z.string()).default([]), peer: z.array(z.string()).default([]) }).default({ foreman: [], peer: [] }),
  builtin_packs: z.array(PackDef).default([]),
  curated_records: z.array(CuratedRecord).nullish().transform((v) => v ?? []),
});
export type PolicyDoc = z.output<typeof PolicyDoc>;

/** Keys of the default the overlay may not change: they describe what the server really serves. */
const FIXED_KEYS = ['schema_version', 'base_tools', 'builtin_packs'] as const;

export type Overlay = Record<string, unknown>;

export function mergePolicy(base: Record<string, unknown>, overlay: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overlay)) {
    const prior = out[key];
    out[key] = isPlainObject(prior) && isPlainObject(value) ? mergePolicy(prior, value) : value;
  }
  return out;
}

/** RFC 7386 merge patch: `null` removes a key, mappings merge, anything else replaces. */
export function applyMergePatch(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (isPlainObject(value)) out[key] = applyMergePatch(isPlainObject(out[key]) ? (out[key] as Record<string, unknown>) : {}, value);
    else out[key] = value;
  }
  return out;
}

export type OverlayCheck =
  | { readonly valid: true; readonly reason: ''; readonly effective: Record<string, unknown>; readonly policy: PolicyDoc }
  | { readonly valid: false; readonly reason: string; readonly effective: Record<string, unknown> };

/** Is `overlay` acceptable over `defaults`? The reason names the first problem. */
export function checkOverlay(defaults: Record<string, unknown>, overlay: unknown): OverlayCheck {
  if (!isPlainObject(overlay)) return { valid: false, reason: 'overlay must be a mapping', effective: defaults };
  for (const key of FIXED_KEYS) {
    if (Object.hasOwn(overlay, key)) return { valid: false, reason: `${key}: fixed by the packaged default`, effective: defaults };
  }
  const effective = mergePolicy(defaults, overlay);
  const parsed = PolicyDoc.safeParse(effective);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { valid: false, reason: `${issue.path.join('.') || '(root)'}: ${issue.message}`, effective };
  }
  return { valid: true, reason: '', effective, policy: parsed.data };
}

/** The revision names the effective policy: equal policies, equal revisions. */
export function policyRevision(effective: Record<string, unknown>): string {
  return `al_${shortHash(effective)}`;
}
