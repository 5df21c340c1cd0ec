import type { z } from 'zod';
import type { OpArgsInput, OpCatalog, OpName } from './catalog.js';

/** Same shape as catalog.fixtures' OpExample (kept here so the two files do not import each other). */
interface OpExample<K extends OpName> {
  readonly args: OpArgsInput<K>;
  readonly required: readonly string[];
  readonly result: z.input<OpCatalog[K]['result']>;
}

// §8.18 Group Space ops: one valid request and result each (spread into opExamples).

const G = 'g_30e7eb3af8cf';
const unbound = (lane: 'work' | 'memory') => ({ group_id: G, provider: 'notebooklm', lane, remote_space_id: '', bound_by: '', bound_at: '', status: 'unbound' as const });
const bindings = { work: unbound('work'), memory: unbound('memory') };
const q0 = { pending: 0, running: 0, failed: 0 };
const providerState = { provider: 'notebooklm', enabled: false, mode: 'disabled' as const, auth_configured: false, write_ready: false, readiness_reason: 'auth_not_configured', last_health_at: null, last_error: null };
const credential = { provider: 'notebooklm' as const, key: 'CCCC_NOTEBOOKLM_AUTH_JSON', configured: false, source: 'none' as const, env_configured: false, store_configured: false, updated_at: null, masked_value: null };
const binding = { ...unbound('work'), provider: 'local', remote_space_id: 'lsp_1', bound_by: 'user', bound_at: '2026-12-02T10:00:00Z', status: 'bound' };

type SpaceOp =
  | 'group_space_status'
  | 'group_space_spaces'
  | 'group_space_capabilities'
  | 'group_space_bind'
  | 'group_space_ingest'
  | 'group_space_query'
  | 'group_space_sources'
  | 'group_space_artifact'
  | 'group_space_jobs'
  | 'group_space_sync'
  | 'group_space_provider_credential_status'
  | 'group_space_provider_credential_update'
  | 'group_space_provider_health_check'
  | 'group_space_provider_auth';

export const spaceExamples: { readonly [K in SpaceOp]: OpExample<K> } = {
  group_space_status: {
    args: { group_id: G },
    required: ['group_id'],
    result: { group_id: G, provider: providerState, bindings, queue_summary: { work: q0, memory: q0 }, sync: { available: false, reason: 'no_scope_attached' } },
  },
  group_space_spaces: {
    args: { group_id: G, provider: 'local' },
    required: ['group_id'],
    result: { group_id: G, provider: 'notebooklm', provider_state: providerState, bindings, spaces: [{ remote_space_id: 'lsp_1', title: 'work', is_owner: true }] },
  },
  group_space_capabilities: {
    args: { group_id: G },
    required: ['group_id'],
    result: {
      group_id: G,
      provider: 'notebooklm',
      local_scope_attached: false,
      space_root: '',
      local_file_policy: { allowed_extensions: ['.md'], max_file_size_bytes: 2097152, unsupported_error_code: 'space_source_unsupported', oversize_error_code: 'space_source_too_large' },
      ingest: { kinds: ['resource_ingest'], resource_ingest: {} },
      query: {},
      artifacts: {},
      notes: [],
      capabilities: ['jobs'],
      unavailable_capabilities: ['sync.work'],
    },
  },
  group_space_bind: {
    args: { group_id: G, lane: 'work', provider: 'local', action: 'bind' },
    required: ['group_id', 'lane'],
    result: { group_id: G, lane: 'work', provider: { provider: 'local', mode: 'active' }, bindings: { work: binding, memory: unbound('memory') }, queue_summary: { work: q0, memory: q0 } },
  },
  group_space_ingest: {
    args: { group_id: G, lane: 'work', kind: 'resource_ingest', payload: { source_type: 'text', content: 'we chose sqlite' }, idempotency_key: 'k1' },
    required: ['group_id', 'lane'],
    result: { group_id: G, lane: 'work', job_id: 'spj_1', accepted: false, completed: true, deduped: false, job: { state: 'succeeded' }, source_id: 'src_1', source_ids: ['src_1'], queue_summary: q0, provider_mode: 'active' },
  },
  group_space_query: {
    args: { group_id: G, lane: 'work', query: 'which database?', options: { source_ids: ['src_1'] } },
    required: ['group_id', 'lane', 'query'],
    result: {
      group_id: G,
      provider: 'notebooklm',
      lane: 'work',
      provider_mode: 'active',
      degraded: false,
      answer: 'We chose SQLite. [1]',
      references: [{ citation: 1, source_id: 'src_1', title: 'DB' }],
      reference_count: 1,
      binding_status: 'bound',
      source_basis_hint: 'requested_sources_only',
      error: null,
    },
  },
  group_space_sources: {
    args: { group_id: G, lane: 'work', action: 'list' },
    required: ['group_id', 'lane'],
    result: { group_id: G, provider: 'notebooklm', lane: 'work', provider_mode: 'active', binding, action: 'list', sources: [{ source_id: 'src_1' }], list_result: { count: 1 } },
  },
  group_space_artifact: {
    args: { group_id: G, lane: 'work', action: 'generate', kind: 'report', wait: true },
    required: ['group_id', 'lane'],
    result: { group_id: G, provider: 'notebooklm', lane: 'work', action: 'generate', provider_mode: 'active' },
  },
  group_space_jobs: {
    args: { group_id: G, lane: 'work', action: 'list', state: 'failed', limit: 20 },
    required: ['group_id', 'lane'],
    result: { group_id: G, lane: 'work', action: 'list', provider_mode: 'active', jobs: [], queue_summary: q0 },
  },
  group_space_sync: {
    args: { group_id: G, lane: 'memory', action: 'status' },
    required: ['group_id', 'lane'],
    result: { group_id: G, lane: 'memory', action: 'status', sync: { lane: 'memory', pending_files: 0 } },
  },
  group_space_provider_credential_status: { args: { provider: 'notebooklm' }, required: [], result: { provider: 'notebooklm', credential } },
  group_space_provider_credential_update: { args: { clear: true }, required: [], result: { provider: 'notebooklm', credential } },
  group_space_provider_health_check: {
    args: {},
    required: [],
    result: { provider: 'notebooklm', healthy: false, error: { code: 'space_provider_not_configured', message: 'no credential' }, provider_state: providerState, credential },
  },
  group_space_provider_auth: {
    args: { action: 'status' },
    required: [],
    result: { provider: 'notebooklm', provider_state: providerState, credential, auth: { provider: 'notebooklm', state: 'idle' } },
  },
};
