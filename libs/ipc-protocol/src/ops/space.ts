import { z } from 'zod';
import { defineOp } from './define.js';
import { ByArg, GroupIdArg, LooseBooleanArg } from './shared.js';

// §8.18 Group Space: a thin control plane over optional external knowledge providers, in two
// fixed lanes (work, memory). `provider` is the spec's "notebooklm" or this implementation's
// extension "local" (an embedded SQLite FTS5 provider); the library refuses any other name.

const Rec = z.record(z.string(), z.unknown());
export const SpaceLane = z.enum(['work', 'memory']);
export const SpaceProviderMode = z.enum(['disabled', 'active', 'degraded']);
const ProviderArg = z.string().min(1).optional();
const LaneArgs = { group_id: GroupIdArg, provider: ProviderArg, lane: SpaceLane };

export const SpaceProviderState = z.looseObject({
  provider: z.string(),
  enabled: z.boolean(),
  mode: SpaceProviderMode,
  real_adapter_enabled: z.boolean().optional(),
  stub_adapter_enabled: z.boolean().optional(),
  auth_configured: z.boolean().optional(),
  write_ready: z.boolean().optional(),
  readiness_reason: z.string().optional(),
  last_health_at: z.string().nullish(),
  last_error: z.string().nullish(),
});

export const SpaceBinding = z.looseObject({
  group_id: z.string(),
  provider: z.string(),
  lane: SpaceLane,
  remote_space_id: z.string(),
  bound_by: z.string(),
  bound_at: z.string(),
  status: z.enum(['bound', 'unbound', 'error']),
});
const Bindings = z.object({ work: SpaceBinding, memory: SpaceBinding });
export const SpaceQueueSummary = z.object({ pending: z.number().int().nonnegative(), running: z.number().int().nonnegative(), failed: z.number().int().nonnegative() });
const QueueSummaries = z.object({ work: SpaceQueueSummary, memory: SpaceQueueSummary });

export const SpaceCredential = z.object({
  provider: z.literal('notebooklm'),
  key: z.string(),
  configured: z.boolean(),
  source: z.enum(['none', 'store', 'env']),
  env_configured: z.boolean(),
  store_configured: z.boolean(),
  updated_at: z.string().nullish(),
  masked_value: z.string().nullish(),
});
const ErrorShape = z.object({ code: z.string(), message: z.string() });

export const group_space_status = defineOp({
  summary: 'Group Space: provider mode, both lane bindings, queue summaries, work-lane space/ sync state and the memory-lane daily sync summary.',
  args: () => z.object({ group_id: GroupIdArg, provider: ProviderArg }),
  result: () => z.object({ group_id: z.string(), provider: SpaceProviderState, bindings: Bindings, queue_summary: QueueSummaries, sync: Rec.optional(), memory_sync: Rec.optional() }),
});

export const group_space_spaces = defineOp({
  summary: "The provider's remote spaces (notebooks) for a selection UI.",
  args: () => z.object({ group_id: GroupIdArg, provider: ProviderArg }),
  result: () => z.object({
    group_id: z.string(),
    provider: z.literal('notebooklm'),
    provider_state: Rec,
    bindings: z.object({ work: Rec, memory: Rec }),
    spaces: z.array(z.looseObject({ remote_space_id: z.string(), title: z.string().optional(), created_at: z.string().optional(), is_owner: z.boolean().optional() })),
  }),
});

export const group_space_capabilities = defineOp({
  summary: 'The Group Space capability matrix of this group and provider (runtime truth).',
  args: () => z.object({ group_id: GroupIdArg, provider: ProviderArg }),
  result: () => z.looseObject({
    group_id: z.string(),
    provider: z.literal('notebooklm'),
    local_scope_attached: z.boolean(),
    space_root: z.string(),
    local_file_policy: z.object({ allowed_extensions: z.array(z.string()), max_file_size_bytes: z.number(), unsupported_error_code: z.string(), oversize_error_code: z.string() }),
    ingest: z.looseObject({ kinds: z.array(z.string()), resource_ingest: Rec }),
    query: Rec,
    artifacts: Rec,
    notes: z.array(z.string()),
    capabilities: z.array(z.string()),
    unavailable_capabilities: z.array(z.string()),
  }),
});

export const group_space_bind = defineOp({
  summary: 'Bind or unbind one lane to a provider space; an empty remote_space_id creates one.',
  args: () => z.object({ ...LaneArgs, action: z.enum(['bind', 'unbind']).optional(), remote_space_id: z.string().max(256).optional(), by: ByArg }),
  result: () => z.object({
    group_id: z.string(),
    lane: SpaceLane,
    provider: Rec,
    bindings: z.object({ work: Rec, memory: Rec }),
    queue_summary: QueueSummaries,
    sync: Rec.optional(),
    memory_sync: Rec.optional(),
    sync_result: Rec.optional(),
  }),
});

export const group_space_ingest = defineOp({
  summary: 'Create (or dedupe by idempotency key) a durable work-lane ingest job and run one provider attempt.',
  args: () => z.object({ ...LaneArgs, kind: z.string().optional(), payload: Rec.optional(), idempotency_key: z.string().max(256).optional(), by: ByArg }),
  result: () => z.object({
    group_id: z.string(),
    lane: z.literal('work'),
    job_id: z.string(),
    accepted: z.boolean(),
    completed: z.boolean(),
    deduped: z.boolean(),
    job: Rec,
    ingest_result: Rec.optional(),
    source_id: z.string().optional(),
    source_ids: z.array(z.string()).optional(),
    queue_summary: SpaceQueueSummary,
    provider_mode: SpaceProviderMode,
  }),
});

export const group_space_query = defineOp({
  summary: "Query one lane's knowledge; an answer cites its sources. Degraded or unbound: ok with degraded=true and an empty answer.",
  args: () => z.object({ ...LaneArgs, query: z.string().trim().min(1).max(4000), options: Rec.optional() }),
  result: () => z.looseObject({
    group_id: z.string(),
    provider: z.literal('notebooklm'),
    lane: SpaceLane,
    provider_mode: SpaceProviderMode,
    degraded: z.boolean(),
    answer: z.string(),
    references: z.array(z.unknown()),
    reference_count: z.number().int().nonnegative(),
    binding_status: z.enum(['bound', 'unbound', 'error']),
    source_basis_hint: z.string(),
    requested_source_ids: z.array(z.string()).optional(),
    referenced_source_ids: z.array(z.string()).optional(),
    error: ErrorShape.nullish(),
  }),
});

export const group_space_sources = defineOp({
  summary: "List, refresh, rename or delete sources of a lane's bound space.",
  args: () => z.object({ ...LaneArgs, action: z.enum(['list', 'refresh', 'rename', 'delete']).optional(), source_id: z.string().max(256).optional(), new_title: z.string().max(512).optional(), by: ByArg }),
  result: () => z.looseObject({
    group_id: z.string(),
    provider: z.literal('notebooklm'),
    lane: SpaceLane,
    provider_mode: SpaceProviderMode,
    binding: Rec,
    action: z.enum(['list', 'refresh', 'rename', 'delete']),
    sources: z.array(Rec).optional(),
    list_result: Rec.optional(),
    source_id: z.string().optional(),
    refresh_result: Rec.optional(),
    rename_result: Rec.optional(),
    delete_result: Rec.optional(),
  }),
});

export const SpaceArtifactKind = z.enum(['audio', 'video', 'report', 'study_guide', 'quiz', 'flashcards', 'infographic', 'slide_deck', 'data_table', 'mind_map']);

export const group_space_artifact = defineOp({
  summary: 'List, generate or download provider artifacts on the work lane.',
  args: () => z.object({
    ...LaneArgs,
    action: z.enum(['list', 'generate', 'download']).optional(),
    kind: SpaceArtifactKind.optional(),
    options: Rec.optional(),
    wait: LooseBooleanArg.optional(),
    save_to_space: LooseBooleanArg.optional(),
    output_path: z.string().max(4096).optional(),
    output_format: z.enum(['json', 'markdown', 'html', 'pdf', 'pptx', 'csv']).optional(),
    artifact_id: z.string().max(256).optional(),
    timeout_seconds: z.number().positive().optional(),
    initial_interval: z.number().positive().optional(),
    max_interval: z.number().positive().optional(),
    by: ByArg,
  }),
  result: () => z.looseObject({ group_id: z.string(), provider: z.literal('notebooklm'), lane: z.literal('work'), action: z.enum(['list', 'generate', 'download']), provider_mode: SpaceProviderMode }),
});

export const SpaceJobState = z.enum(['pending', 'running', 'succeeded', 'failed', 'canceled']);

export const group_space_jobs = defineOp({
  summary: 'List, retry (failed/canceled only, same binding) or cancel Group Space jobs of one lane.',
  args: () => z.object({ ...LaneArgs, action: z.enum(['list', 'retry', 'cancel']).optional(), job_id: z.string().max(256).optional(), state: SpaceJobState.optional(), limit: z.number().int().positive().optional(), by: ByArg }),
  result: () => z.looseObject({ group_id: z.string(), lane: SpaceLane, action: z.enum(['list', 'retry', 'cancel']), provider_mode: SpaceProviderMode, jobs: z.array(Rec).optional(), job: Rec.optional(), queue_summary: SpaceQueueSummary }),
});

export const group_space_sync = defineOp({
  summary: 'Read-only legacy sync state of one lane; action=run is retired (capability_unavailable).',
  args: () => z.object({ ...LaneArgs, action: z.string().optional(), by: ByArg }),
  result: () => z.object({ group_id: z.string(), lane: SpaceLane, action: z.literal('status'), sync: Rec }),
});

const ProviderUserArgs = { provider: ProviderArg, by: ByArg };

export const group_space_provider_credential_status = defineOp({
  summary: 'Provider credential status: masked metadata only, never the secret (user-only).',
  args: () => z.object(ProviderUserArgs),
  result: () => z.object({ provider: z.literal('notebooklm'), credential: SpaceCredential }),
});

export const group_space_provider_credential_update = defineOp({
  summary: 'Store (validated, write-only) or clear the provider credential (user-only).',
  args: () => z.object({ ...ProviderUserArgs, auth_json: z.string().optional(), clear: LooseBooleanArg.optional() }),
  result: () => z.object({ provider: z.literal('notebooklm'), credential: SpaceCredential }),
});

export const group_space_provider_health_check = defineOp({
  summary: 'Run the provider health check (a candidate auth_json is validated, never stored) and record the outcome (user-only).',
  args: () => z.object({ ...ProviderUserArgs, auth_json: z.string().optional() }),
  result: () => z.object({ provider: z.literal('notebooklm'), healthy: z.boolean(), health: Rec.optional(), error: ErrorShape.optional(), provider_state: Rec, credential: SpaceCredential }),
});

export const group_space_provider_auth = defineOp({
  summary: 'Provider sign-in flow: status projects the durable state; start/cancel/disconnect need a browser surface (capability_unavailable here).',
  args: () => z.object({ ...ProviderUserArgs, action: z.enum(['status', 'start', 'cancel', 'disconnect']).optional(), timeout_seconds: z.number().positive().optional(), projected: LooseBooleanArg.optional() }),
  result: () => z.object({
    provider: z.literal('notebooklm'),
    provider_state: Rec,
    credential: SpaceCredential,
    auth: z.looseObject({ provider: z.literal('notebooklm'), state: z.enum(['idle', 'running', 'succeeded', 'failed', 'canceled']) }),
  }),
});
