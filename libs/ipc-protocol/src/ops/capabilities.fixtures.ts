import type { z } from 'zod';
import type { OpArgsInput, OpCatalog, OpName } from './catalog.js';

/** Same shape as catalog.fixtures' OpExample (kept here so the two files do not import each other). */
interface OpExample<K extends OpName> {
  readonly args: OpArgsInput<K>;
  readonly required: readonly string[];
  readonly result: z.input<OpCatalog[K]['result']>;
}

// §8.3 capability ops: one valid request and result each (spread into opExamples).

const G = 'g_30e7eb3af8cf';
const snapshot = { default: { schema_version: 1 }, overlay: {}, effective: { schema_version: 1 }, revision: 'r_1', external_capability_safety_mode: 'normal' as const };
const sources = { default_source: 'packaged', overlay_source: '/h/config/capability-allowlist.user.yaml', overlay_error: '', policy_source: 'merged', policy_error: '' };

type CapOp =
  | 'capability_overview'
  | 'capability_search'
  | 'capability_enable'
  | 'capability_block'
  | 'capability_state'
  | 'capability_visibility'
  | 'capability_import'
  | 'capability_allowlist_get'
  | 'capability_allowlist_validate'
  | 'capability_allowlist_update'
  | 'capability_allowlist_reset'
  | 'capability_install_target'
  | 'capability_uninstall'
  | 'capability_source_delete'
  | 'capability_tool_call';

export const capabilityExamples: { readonly [K in CapOp]: OpExample<K> } = {
  capability_overview: {
    args: { query: 'review' },
    required: [],
    result: {
      items: [
        {
          capability_id: 'pack:diagnostics',
          kind: 'mcp_toolpack',
          name: 'Terminal diagnostics',
          policy_level: 'mounted',
          policy_visible: true,
          blocked_global: false,
          enable_supported: true,
          qualification_status: 'qualified',
          autoload_candidate: true,
          tool_names: ['cccc_terminal'],
        },
      ],
      count: 1,
      query: 'review',
      sources: { cccc_builtin: { source_id: 'cccc_builtin', enabled: true, source_level: 'mounted', sync_state: 'fresh', staleness_seconds: 0, record_count: 2 } },
      blocked_capabilities: [],
      allowlist_revision: 'r_1',
    },
  },
  capability_search: {
    args: { group_id: G, query: 'terminal' },
    required: ['group_id'],
    result: {
      group_id: G,
      default_profile: 'core',
      items: [
        {
          capability_id: 'pack:diagnostics',
          kind: 'mcp_toolpack',
          name: 'Terminal diagnostics',
          description_short: 'Read a terminal',
          source_id: 'cccc_builtin',
          source_tier: 'builtin',
          trust_tier: 'high',
          qualification_status: 'qualified',
          enabled: false,
          enable_supported: true,
          enable_hint: 'enable_now',
        },
      ],
      count: 1,
      sources: {},
      applied_filters: { kind: '', source_id: '', trust_tier: '', qualification_status: '' },
      search_diagnostics: { remote_augmented: false, remote_added: 0, remote_error: 'mcp_registry_official:timeout' },
    },
  },
  capability_enable: {
    args: { group_id: G, capability_id: 'pack:diagnostics', scope: 'actor', actor_id: 'peer1' },
    required: ['group_id', 'capability_id'],
    result: {
      action_id: 'ca_1',
      group_id: G,
      actor_id: 'peer1',
      capability_id: 'pack:diagnostics',
      scope: 'actor',
      enabled: true,
      state: 'activation_pending',
      refresh_required: true,
      refresh_mode: 'relist_or_reconnect',
    },
  },
  capability_block: {
    args: { group_id: G, capability_id: 'pack:diagnostics' },
    required: ['group_id', 'capability_id'],
    result: {
      action_id: 'ca_2',
      group_id: G,
      actor_id: 'user',
      capability_id: 'pack:diagnostics',
      scope: 'group',
      blocked: true,
      state: 'blocked',
      removed_bindings: 1,
      removed_runtime_bindings: 0,
      refresh_required: true,
      block: { by: 'user', blocked_at: '2026-12-02T00:00:00Z' },
    },
  },
  capability_state: {
    args: { group_id: G, actor_id: 'peer1', view: 'mcp_catalog' },
    required: ['group_id'],
    result: {
      group_id: G,
      actor_id: 'peer1',
      default_profile: 'core',
      core_tool_count: 1,
      visible_tool_count: 1,
      visible_tools: ['cccc_help'],
      dynamic_tool_limit: 32,
      dynamic_tool_dropped: 0,
      enabled_capabilities: [],
      hidden_capabilities: [],
      precedence_chain: ['session', 'actor', 'group'],
      session_bindings: [],
      source_states: {},
      is_foreman: false,
    },
  },
  capability_visibility: {
    args: { group_id: G, capability_id: 'skill:cccc:handoff', hidden: true },
    required: ['group_id', 'capability_id', 'hidden'],
    result: {
      action_id: 'ca_3',
      group_id: G,
      actor_id: 'user',
      capability_id: 'skill:cccc:handoff',
      hidden: true,
      actor_hidden_capabilities: ['skill:cccc:handoff'],
      state: 'hidden',
    },
  },
  capability_import: {
    args: { group_id: G, record: { capability_id: 'skill:manual:x', kind: 'skill', capsule_text: 'Do x.' }, dry_run: true },
    required: ['group_id', 'record'],
    result: {
      action_id: 'ca_4',
      group_id: G,
      actor_id: 'user',
      capability_id: 'skill:manual:x',
      kind: 'skill',
      dry_run: true,
      imported: false,
      scope: 'session',
      record: { capability_id: 'skill:manual:x' },
      probe: { state: 'runnable' },
      diagnostics: [],
      effective_policy_level: 'mounted',
      enableable_now: true,
      enable_after_import: false,
      refresh_required: false,
      state: 'enableable',
    },
  },
  capability_allowlist_get: { args: {}, required: [], result: { ...snapshot, ...sources } },
  capability_allowlist_validate: {
    args: { mode: 'patch', patch: { external_capability_safety_mode: 'conservative' } },
    required: [],
    result: { valid: true, reason: '', ...snapshot },
  },
  capability_allowlist_update: {
    args: { by: 'user', patch: {}, expected_revision: 'r_1' },
    required: [],
    result: { updated: true, ...snapshot, policy_source: 'merged', policy_error: '' },
  },
  capability_allowlist_reset: { args: { by: 'user' }, required: [], result: { reset: true, removed_overlay_file: false, ...snapshot, ...sources } },
  capability_install_target: {
    args: { group_id: G, target: 'skill:cccc:handoff' },
    required: ['group_id', 'target'],
    result: {
      action_id: 'ca_5',
      group_id: G,
      actor_id: 'user',
      target: 'skill:cccc:handoff',
      target_kind: 'capability_id',
      scope: 'actor',
      installed_capability_ids: ['skill:cccc:handoff'],
      enabled_capability_ids: ['skill:cccc:handoff'],
      use_ready_capability_ids: ['skill:cccc:handoff'],
      requires_setup: false,
      refresh_required: true,
      state: 'ready',
    },
  },
  capability_uninstall: {
    args: { group_id: G, capability_id: 'skill:cccc:handoff' },
    required: ['group_id', 'capability_id'],
    result: {
      action_id: 'ca_6',
      group_id: G,
      actor_id: 'user',
      capability_id: 'skill:cccc:handoff',
      state: 'ready',
      removed_record: false,
      removed_bindings: 1,
      removed_group_marker: true,
      removed_installation: false,
      removed_actor_autoload: 0,
      removed_profile_autoload: 0,
      refresh_required: true,
    },
  },
  capability_source_delete: {
    args: { group_id: G, source_id: 'manual_import' },
    required: ['group_id', 'source_id'],
    result: {
      group_id: G,
      actor_id: 'user',
      source_id: 'manual_import',
      removed_records: 1,
      removed_capability_ids: ['skill:manual:x'],
      removed_runtime_bindings: 0,
      removed_installations: 0,
      removed_actor_autoload: 0,
      removed_profile_autoload: 0,
    },
  },
  capability_tool_call: {
    args: { group_id: G, actor_id: 'peer1', tool_name: 'cccc_ext_abc_echo', arguments: { message: 'hi' } },
    required: ['group_id', 'tool_name'],
    result: { tool_name: 'cccc_ext_abc_echo', capability_id: 'mcp:npm:x', result: { content: [] } },
  },
};
