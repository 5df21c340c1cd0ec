import { z } from 'zod';
import { defineOp } from './define.js';
import { ByArg, GroupIdArg, LooseBooleanArg } from './shared.js';

// §8.3 Capabilities: the catalog, its allowlist policy, bindings by scope, blocks and the
// dynamic MCP tool exposure each actor sees. Results are loose objects: the spec lists the
// fields a client may rely on, an implementation may add more.

const Rec = z.record(z.string(), z.unknown());
export const PolicyLevel = z.enum(['indexed', 'mounted', 'enabled', 'pinned']);
export type PolicyLevel = z.infer<typeof PolicyLevel>;
export const CapabilityKind = z.enum(['mcp_toolpack', 'skill']);
export type CapabilityKind = z.infer<typeof CapabilityKind>;
export const QualificationStatus = z.enum(['qualified', 'unavailable', 'blocked']);
export const EnableScope = z.enum(['group', 'actor', 'session']);
export type EnableScope = z.infer<typeof EnableScope>;
export const BlockScope = z.enum(['group', 'global']);
export type BlockScope = z.infer<typeof BlockScope>;
export const SafetyMode = z.enum(['normal', 'conservative']);
export const CapabilityIdArg = z.string().min(1).max(512);
const TtlArg = z.number().int().nonnegative();
const RefreshMode = z.literal('relist_or_reconnect');

const Diagnostic = z.looseObject({
  code: z.string(),
  message: z.string(),
  retryable: z.boolean().optional(),
  required_env: z.array(z.string()).optional(),
  action_hints: z.array(z.string()).optional(),
});

const BlockEntry = z.looseObject({
  capability_id: z.string(),
  scope: BlockScope,
  reason: z.string().optional(),
  by: z.string().optional(),
  blocked_at: z.string().optional(),
  expires_at: z.string().optional(),
});

const ReadinessPreview = z.looseObject({
  preview_status: z.enum(['blocked', 'enableable', 'active', 'needs_inspect']),
  next_step: z.string(),
  already_active: z.boolean().optional(),
});

const SourceState = z.looseObject({
  source_id: z.string(),
  enabled: z.boolean(),
  source_level: PolicyLevel,
  rationale: z.string().optional(),
  sync_state: z.string(),
  last_synced_at: z.string().optional(),
  staleness_seconds: z.number(),
  record_count: z.number().int().nonnegative(),
  error: z.string().optional(),
});

export const CapabilityOverviewItem = z.looseObject({
  capability_id: z.string(),
  kind: z.enum(['mcp_toolpack', 'skill', '']),
  name: z.string(),
  description_short: z.string().optional(),
  source_id: z.string().optional(),
  source_uri: z.string().optional(),
  source_tier: z.string().optional(),
  trust_tier: z.string().optional(),
  license: z.string().optional(),
  sync_state: z.string().optional(),
  policy_level: PolicyLevel,
  policy_visible: z.boolean(),
  blocked_global: z.boolean(),
  blocked_reason: z.string().optional(),
  enable_supported: z.boolean(),
  qualification_status: QualificationStatus,
  qualification_reasons: z.array(z.string()).optional(),
  capsule_text: z.string().optional(),
  install_mode: z.string().optional(),
  autoload_candidate: z.boolean(),
  tags: z.array(z.string()).optional(),
  tool_count: z.number().int().nonnegative().optional(),
  tool_names: z.array(z.string()).optional(),
  cached_install_state: z.string().optional(),
  cached_install_error_code: z.string().optional(),
  cached_install_error: z.string().optional(),
});

export const capability_overview = defineOp({
  summary: 'Global capability library snapshot (catalog, sources, global blocks, allowlist revision).',
  args: () => z.object({
    query: z.string().optional(),
    limit: z.number().int().positive().optional(),
    include_indexed: LooseBooleanArg.optional(),
  }),
  result: () => z.looseObject({
    items: z.array(CapabilityOverviewItem),
    count: z.number().int().nonnegative(),
    query: z.string(),
    sources: z.record(z.string(), SourceState),
    blocked_capabilities: z.array(BlockEntry),
    allowlist_revision: z.string(),
  }),
});

export const CapabilitySearchItem = z.looseObject({
  capability_id: z.string(),
  kind: CapabilityKind,
  name: z.string(),
  description_short: z.string(),
  source_id: z.string(),
  source_tier: z.string(),
  source_uri: z.string().optional(),
  trust_tier: z.string(),
  license: z.string().optional(),
  qualification_status: QualificationStatus,
  sync_state: z.string().optional(),
  enabled: z.boolean(),
  enable_supported: z.boolean(),
  install_mode: z.string().optional(),
  policy_level: PolicyLevel.optional(),
  enable_hint: z.enum(['enable_now', 'blocked', 'unsupported', 'active']).optional(),
  blocked_reason: z.string().optional(),
  readiness_preview: ReadinessPreview.optional(),
  tags: z.array(z.string()).optional(),
  tool_count: z.number().int().nonnegative().optional(),
  tool_names: z.array(z.string()).optional(),
});

export const capability_search = defineOp({
  summary: 'Search the capability registry (built-in packs, local catalog, remote fallback).',
  args: () => z.object({
    group_id: GroupIdArg,
    actor_id: z.string().optional(),
    by: ByArg,
    query: z.string().optional(),
    kind: z.enum(['mcp_toolpack', 'skill', '']).optional(),
    source_id: z.string().optional(),
    trust_tier: z.string().optional(),
    qualification_status: z.enum(['qualified', 'unavailable', 'blocked', '']).optional(),
    include_external: LooseBooleanArg.optional(),
    limit: z.number().int().positive().optional(),
  }),
  result: () => z.looseObject({
    group_id: z.string(),
    actor_id: z.string().optional(),
    default_profile: z.literal('core'),
    items: z.array(CapabilitySearchItem),
    count: z.number().int().nonnegative(),
    sources: Rec,
    applied_filters: z.object({ kind: z.string(), source_id: z.string(), trust_tier: z.string(), qualification_status: z.string() }),
    search_diagnostics: z
      .looseObject({
        remote_augmented: z.boolean(),
        remote_added: z.number().int().nonnegative(),
        remote_error: z.string().optional(),
        policy_hidden_count: z.number().int().nonnegative().optional(),
      })
      .optional(),
  }),
});

const SkillView = z.looseObject({
  capability_id: z.string(),
  name: z.string(),
  description_short: z.string().optional(),
  capsule: z.string().optional(),
  requires_capabilities: z.array(z.string()).optional(),
  applied_dependencies: z.array(z.string()).optional(),
  skipped_dependencies: z.array(z.object({ capability_id: z.string(), reason: z.string() })).optional(),
  source_id: z.string().optional(),
  source_uri: z.string().optional(),
});

const Preflight = z.looseObject({
  ok: z.boolean(),
  code: z.string(),
  message: z.string(),
  required_env: z.array(z.string()).optional(),
  missing_binaries: z.array(z.string()).optional(),
});

export const CapabilityEnableResult = z.looseObject({
  action_id: z.string(),
  group_id: z.string(),
  actor_id: z.string(),
  capability_id: z.string(),
  scope: EnableScope,
  enabled: z.boolean(),
  /** `failed` is the quota answer (spec quota note 4). */
  state: z.enum(['activation_pending', 'runnable', 'blocked', 'disabled', 'failed']),
  refresh_required: z.boolean(),
  refresh_mode: RefreshMode.optional(),
  wait: RefreshMode.optional(),
  reason: z.string().optional(),
  error: z.string().optional(),
  retryable: z.boolean().optional(),
  install_error_code: z.string().optional(),
  required_env: z.array(z.string()).optional(),
  missing_binaries: z.array(z.string()).optional(),
  policy_level: PolicyLevel.optional(),
  install_state: z.enum(['installed', 'installed_degraded', 'install_failed']).optional(),
  degraded: z.boolean().optional(),
  preflight: Preflight.optional(),
  diagnostics: z.array(Diagnostic).optional(),
  removed_binding_count: z.number().int().nonnegative().optional(),
  removed_installation: z.boolean().optional(),
  cleanup_skipped_reason: z.string().optional(),
  skill: SkillView.optional(),
});
export type CapabilityEnableResult = z.infer<typeof CapabilityEnableResult>;

export const capability_enable = defineOp({
  summary: 'Enable or disable a capability for a group, an actor or a session (TTL).',
  args: () => z.object({
    group_id: GroupIdArg,
    capability_id: CapabilityIdArg,
    scope: EnableScope.optional(),
    enabled: LooseBooleanArg.optional(),
    cleanup: LooseBooleanArg.optional(),
    reason: z.string().max(500).optional(),
    ttl_seconds: TtlArg.optional(),
    by: ByArg,
    actor_id: z.string().optional(),
  }),
  result: () => CapabilityEnableResult,
});

export const capability_block = defineOp({
  summary: 'Block or unblock a capability for a group or globally (revokes bindings at once).',
  args: () => z.object({
    group_id: GroupIdArg,
    capability_id: CapabilityIdArg,
    scope: BlockScope.optional(),
    blocked: LooseBooleanArg.optional(),
    ttl_seconds: TtlArg.optional(),
    reason: z.string().max(500).optional(),
    by: ByArg,
    actor_id: z.string().optional(),
  }),
  result: () => z.looseObject({
    action_id: z.string(),
    group_id: z.string(),
    actor_id: z.string(),
    capability_id: z.string(),
    scope: BlockScope,
    blocked: z.boolean(),
    state: z.enum(['blocked', 'unblocked']),
    removed_bindings: z.number().int().nonnegative(),
    removed_runtime_bindings: z.number().int().nonnegative(),
    refresh_required: z.boolean(),
    refresh_mode: RefreshMode.optional(),
    wait: RefreshMode.optional(),
    block: z.looseObject({ reason: z.string().optional(), by: z.string().optional(), blocked_at: z.string().optional(), expires_at: z.string().optional() }).optional(),
  }),
});

export const DynamicTool = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  inputSchema: Rec,
  capability_id: z.string(),
  real_tool_name: z.string(),
});

const ActorRef = z.looseObject({ actor_id: z.string(), actor_title: z.string().optional(), label: z.string().optional() });

export const capability_state = defineOp({
  summary: "An actor's effective capabilities and the MCP tools it sees.",
  args: () => z.object({
    group_id: GroupIdArg,
    actor_id: z.string().optional(),
    by: ByArg,
    capability_id: z.string().optional(),
    view: z.literal('mcp_catalog').optional(),
  }),
  result: () => z.looseObject({
    group_id: z.string(),
    actor_id: z.string(),
    default_profile: z.literal('core'),
    core_tool_count: z.number().int().nonnegative(),
    visible_tool_count: z.number().int().nonnegative(),
    visible_tools: z.array(z.string()),
    dynamic_tools: z.array(DynamicTool).optional(),
    dynamic_tool_limit: z.number().int().nonnegative(),
    dynamic_tool_dropped: z.number().int().nonnegative(),
    enabled_capabilities: z.array(z.string()),
    active_capsule_skills: z.array(z.looseObject({ capability_id: z.string(), name: z.string() })).optional(),
    autoload_capabilities: z.array(z.string()).optional(),
    actor_hidden_capabilities: z.array(z.string()).optional(),
    hidden_capabilities: z.array(z.looseObject({ capability_id: z.string(), reason: z.string() })),
    external_binding_states: z.record(z.string(), z.looseObject({ mode: z.enum(['mcp', 'skill']), state: z.string() })).optional(),
    precedence_chain: z.tuple([z.literal('session'), z.literal('actor'), z.literal('group')]),
    session_bindings: z.array(z.object({ capability_id: z.string(), expires_at: z.string(), ttl_seconds: z.number() })),
    source_states: Rec,
    blocked_capabilities: z.array(BlockEntry).optional(),
    capability_usage: z
      .looseObject({
        capability_id: z.string(),
        used: z.boolean(),
        group_enabled: z.boolean(),
        group_actor_count: z.number().int().nonnegative(),
        actor_enabled: z.array(ActorRef),
        session_enabled: z.array(ActorRef.extend({ expires_at: z.string(), ttl_seconds: z.number() })),
        actor_autoload: z.array(ActorRef),
        profile_autoload: z.array(ActorRef),
        blocked: z.boolean(),
        blocked_scope: BlockScope.optional(),
        blocked_reason: z.string().optional(),
      })
      .optional(),
    is_foreman: z.boolean(),
  }),
});

export const capability_visibility = defineOp({
  summary: "Hide or show a capability on one actor's UI/menu surfaces (bindings unchanged).",
  args: () => z.object({
    group_id: GroupIdArg,
    by: ByArg,
    actor_id: z.string().optional(),
    capability_id: CapabilityIdArg,
    hidden: LooseBooleanArg,
    reason: z.string().max(500).optional(),
  }),
  result: () => z.looseObject({
    action_id: z.string(),
    group_id: z.string(),
    actor_id: z.string(),
    capability_id: z.string(),
    hidden: z.boolean(),
    actor_hidden_capabilities: z.array(z.string()),
    state: z.enum(['hidden', 'visible']),
  }),
});

const CommandSpec = z.union([z.string(), z.array(z.string())]);

export const CapabilityImportRecord = z.object({
  capability_id: CapabilityIdArg,
  kind: CapabilityKind,
  name: z.string().max(200).optional(),
  description_short: z.string().max(2000).optional(),
  source_id: z.string().optional(),
  source_uri: z.string().optional(),
  source_record_id: z.string().optional(),
  source_record_version: z.string().optional(),
  updated_at_source: z.string().optional(),
  source_tier: z.string().optional(),
  trust_tier: z.string().optional(),
  qualification_status: QualificationStatus.optional(),
  qualification_reasons: z.array(z.string()).optional(),
  tags: z.array(z.string()).optional(),
  license: z.string().optional(),
  install_mode: z.enum(['remote_only', 'package', 'command']).optional(),
  install_spec: Rec.optional(),
  command: CommandSpec.optional(),
  command_candidates: z.array(CommandSpec).optional(),
  fallback_command: CommandSpec.optional(),
  fallback_command_candidates: z.array(CommandSpec).optional(),
  capsule_text: z.string().max(64 * 1024).optional(),
  requires_capabilities: z.array(z.string()).optional(),
});
export type CapabilityImportRecord = z.infer<typeof CapabilityImportRecord>;

export const capability_import = defineOp({
  summary: 'Import one normalized capability record (mcp:* or skill:*), optionally enabling it.',
  args: () => z.object({
    group_id: GroupIdArg,
    by: ByArg,
    actor_id: z.string().optional(),
    record: CapabilityImportRecord,
    dry_run: LooseBooleanArg.optional(),
    probe: LooseBooleanArg.optional(),
    enable_after_import: LooseBooleanArg.optional(),
    scope: EnableScope.optional(),
    ttl_seconds: TtlArg.optional(),
    reason: z.string().max(500).optional(),
  }),
  result: () => z.looseObject({
    action_id: z.string(),
    group_id: z.string(),
    actor_id: z.string(),
    capability_id: z.string(),
    kind: CapabilityKind,
    dry_run: z.boolean(),
    imported: z.boolean(),
    scope: EnableScope,
    import_action: z.enum(['created', 'updated', 'unchanged']).optional(),
    record_changed: z.boolean().optional(),
    already_active: z.boolean().optional(),
    active_after_import: z.boolean().optional(),
    record: Rec,
    probe: z.looseObject({ state: z.enum(['runnable', 'failed', 'skipped']) }),
    diagnostics: z.array(Diagnostic),
    effective_policy_level: PolicyLevel,
    enableable_now: z.boolean(),
    enable_block_reason: z.enum(['policy_level_indexed', 'qualification_blocked', 'capability_unavailable']).optional(),
    readiness_preview: ReadinessPreview.optional(),
    enable_after_import: z.boolean(),
    enable_result: Rec.optional(),
    refresh_required: z.boolean(),
    state: z.enum(['blocked', 'enableable', 'needs_inspect', 'activation_pending', 'runnable', 'verified', 'failed']),
    reason: z.string().optional(),
  }),
});

const AllowlistSnapshot = {
  default: Rec,
  overlay: Rec,
  effective: Rec,
  revision: z.string(),
  external_capability_safety_mode: SafetyMode,
};
const PolicySources = {
  default_source: z.string(),
  overlay_source: z.string(),
  overlay_error: z.string(),
  policy_source: z.string(),
  policy_error: z.string(),
};
const OverlayChange = {
  mode: z.enum(['patch', 'replace']).optional(),
  patch: Rec.optional(),
  overlay: Rec.optional(),
};

export const capability_allowlist_get = defineOp({
  summary: 'Read the allowlist default, overlay and effective policy with its revision.',
  args: () => z.object({ by: ByArg }),
  result: () => z.looseObject({ ...AllowlistSnapshot, ...PolicySources }),
});

export const capability_allowlist_validate = defineOp({
  summary: 'Validate an allowlist overlay change without persisting it.',
  args: () => z.object({ by: ByArg, ...OverlayChange }),
  result: () => z.looseObject({ valid: z.boolean(), reason: z.string(), ...AllowlistSnapshot }),
});

export const capability_allowlist_update = defineOp({
  summary: 'Persist an allowlist overlay change (user only, optimistic revision check).',
  args: () => z.object({ by: ByArg, expected_revision: z.string().optional(), ...OverlayChange }),
  result: () => z.looseObject({ updated: z.literal(true), ...AllowlistSnapshot, policy_source: z.string(), policy_error: z.string() }),
});

export const capability_allowlist_reset = defineOp({
  summary: 'Reset the allowlist overlay to empty (user only).',
  args: () => z.object({ by: ByArg }),
  result: () => z.looseObject({ reset: z.literal(true), removed_overlay_file: z.boolean(), ...AllowlistSnapshot, ...PolicySources }),
});

export const capability_install_target = defineOp({
  summary: 'Install and enable a capability id or SKILL.md records from a local path, URL or GitHub repo.',
  args: () => z.object({
    group_id: GroupIdArg,
    target: z.string().min(1).max(4096),
    actor_id: z.string().optional(),
    by: ByArg,
    scope: EnableScope.optional(),
    ttl_seconds: TtlArg.optional(),
  }),
  result: () => z.looseObject({
    action_id: z.string(),
    group_id: z.string(),
    actor_id: z.string(),
    target: z.string(),
    target_kind: z.enum(['capability_id', 'local_path', 'url', 'github']),
    scope: EnableScope,
    installed_capability_ids: z.array(z.string()),
    enabled_capability_ids: z.array(z.string()),
    use_ready_capability_ids: z.array(z.string()),
    requires_setup: z.boolean(),
    refresh_required: z.boolean(),
    state: z.enum(['ready', 'needs_setup']),
    event_publish_error: z.string().optional(),
  }),
});

export const capability_uninstall = defineOp({
  summary: "Revoke a capability's bindings in a group and remove its runtime cache when unbound.",
  args: () => z.object({ group_id: GroupIdArg, capability_id: CapabilityIdArg, reason: z.string().max(500).optional(), by: ByArg, actor_id: z.string().optional() }),
  result: () => z.looseObject({
    action_id: z.string(),
    group_id: z.string(),
    actor_id: z.string(),
    capability_id: z.string(),
    state: z.literal('ready'),
    removed_record: z.boolean(),
    removed_bindings: z.number().int().nonnegative(),
    removed_blocked: z.number().int().nonnegative().optional(),
    removed_group_marker: z.boolean(),
    removed_installation: z.boolean(),
    removed_runtime_bindings: z.number().int().nonnegative().optional(),
    removed_recent_success: z.boolean().optional(),
    removed_actor_autoload: z.number().int().nonnegative(),
    removed_profile_autoload: z.number().int().nonnegative(),
    cleanup_skipped_reason: z.literal('cleanup_skipped_capability_still_bound').optional(),
    refresh_required: z.boolean(),
    refresh_mode: RefreshMode.optional(),
    wait: RefreshMode.optional(),
  }),
});

export const RemovableSourceId = z.enum(['manual_import', 'agent_self_proposed', 'github_import', 'url_import', 'local_import']);

export const capability_source_delete = defineOp({
  summary: 'Delete every record of a removable import source and clean its bindings everywhere.',
  args: () => z.object({ group_id: GroupIdArg, source_id: z.string().min(1), reason: z.string().max(500).optional(), by: ByArg, actor_id: z.string().optional() }),
  result: () => z.looseObject({
    group_id: z.string(),
    actor_id: z.string(),
    source_id: z.string(),
    removed_records: z.number().int().nonnegative(),
    removed_capability_ids: z.array(z.string()),
    removed_runtime_bindings: z.number().int().nonnegative(),
    removed_installations: z.number().int().nonnegative(),
    removed_actor_autoload: z.number().int().nonnegative(),
    removed_profile_autoload: z.number().int().nonnegative(),
  }),
});

export const capability_tool_call = defineOp({
  summary: 'Call a tool of an enabled external MCP capability by its synthetic tool name.',
  args: () => z.object({ group_id: GroupIdArg, actor_id: z.string().optional(), by: ByArg, tool_name: z.string().min(1), arguments: Rec.optional() }),
  result: () => z.looseObject({ tool_name: z.string(), capability_id: z.string(), result: Rec }),
});
