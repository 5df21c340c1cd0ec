import type { GroupState, OpArgsInput, OpName, OpResult } from '@cccc/ipc-protocol';

// The Web's HTTP API as one table: method + path → the daemon op it speaks and where that op's
// args come from. The server registers its handlers from it (routes/op-routes.ts) and the
// browser's typed client is generated from it (app/src/api/client.ts), so both read the same
// paths and the same op types. Browser-safe on purpose: only types are imported, so the app
// bundles this table and nothing of zod or the op catalog.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * What a request carries besides its path. Path parameters are named after the op args they
 * fill (`:group_id`, `:actor_id`, ...), and the Web fills `by: "user"` wherever the op has `by`.
 * - `none`: nothing else;
 * - `body`: JSON, the op's args less what the route fills;
 * - `patch`: JSON, the op's `patch` arg itself;
 * - `query`: query parameters named after the op args listed in `query`;
 * - `form`: `multipart/form-data` (uploads);
 * - `sse` / `raw`: a stream or raw bytes, read by URL (EventSource, links), never fetched as JSON.
 */
export type RouteInput = 'none' | 'body' | 'patch' | 'query' | 'form' | 'sse' | 'raw';

export interface RouteSpec {
  readonly method: HttpMethod;
  /** Under `/api/v1`. */
  readonly path: `/${string}`;
  /** The daemon op behind the route; absent for the Web's own routes (health, access tokens). */
  readonly op?: OpName;
  readonly input: RouteInput;
  /** Op args read from the query string (`query`, `sse` routes). */
  readonly query?: readonly string[];
  /** Admin token only (when tokens exist). */
  readonly admin?: true;
  /** A second method answering the same way (legacy clients). */
  readonly alsoMethod?: HttpMethod;
  /** Body args the Web defaults when the request leaves them out. */
  readonly defaults?: { readonly [arg: string]: string };
}

export const API_PREFIX = '/api/v1';

export const webRoutes = {
  // §8.1 core, and the Web's own liveness
  ping: { method: 'GET', path: '/ping', op: 'ping', input: 'none' },
  ready: { method: 'GET', path: '/ready', op: 'ping', input: 'none' },
  health: { method: 'GET', path: '/health', input: 'none' },
  runtimes: { method: 'GET', path: '/runtimes', op: 'runtime_list', input: 'none' },

  // Groups, scopes, lifecycle, settings
  groups: { method: 'GET', path: '/groups', op: 'groups', input: 'none' },
  group_create: { method: 'POST', path: '/groups', op: 'group_create', input: 'body', admin: true },
  group_show: { method: 'GET', path: '/groups/:group_id', op: 'group_show', input: 'query', query: ['detail'] },
  group_update: { method: 'PUT', path: '/groups/:group_id', op: 'group_update', input: 'patch' },
  group_delete: { method: 'DELETE', path: '/groups/:group_id', op: 'group_delete', input: 'none' },
  group_start: { method: 'POST', path: '/groups/:group_id/start', op: 'group_start', input: 'none' },
  group_stop: { method: 'POST', path: '/groups/:group_id/stop', op: 'group_stop', input: 'none' },
  group_state: { method: 'POST', path: '/groups/:group_id/state', op: 'group_set_state', input: 'body' },
  attach: { method: 'POST', path: '/groups/:group_id/attach', op: 'attach', input: 'body' },
  group_detach_scope: { method: 'DELETE', path: '/groups/:group_id/scopes/:scope_key', op: 'group_detach_scope', input: 'none' },
  group_settings: { method: 'GET', path: '/groups/:group_id/settings', op: 'group_show', input: 'none' },
  group_settings_update: { method: 'PUT', path: '/groups/:group_id/settings', op: 'group_settings_update', input: 'patch' },

  // Actors
  actor_list: { method: 'GET', path: '/groups/:group_id/actors', op: 'actor_list', input: 'query', query: ['include_unread'] },
  actor_add: { method: 'POST', path: '/groups/:group_id/actors', op: 'actor_add', input: 'body' },
  actor_update: { method: 'POST', path: '/groups/:group_id/actors/:actor_id', op: 'actor_update', input: 'body', alsoMethod: 'PUT' },
  actor_remove: { method: 'DELETE', path: '/groups/:group_id/actors/:actor_id', op: 'actor_remove', input: 'none' },
  actor_start: { method: 'POST', path: '/groups/:group_id/actors/:actor_id/start', op: 'actor_start', input: 'none' },
  actor_stop: { method: 'POST', path: '/groups/:group_id/actors/:actor_id/stop', op: 'actor_stop', input: 'none' },
  actor_restart: { method: 'POST', path: '/groups/:group_id/actors/:actor_id/restart', op: 'actor_restart', input: 'none' },
  actor_new_session: { method: 'POST', path: '/groups/:group_id/actors/:actor_id/new_session', op: 'actor_new_session', input: 'none' },
  actor_env_private_keys: { method: 'GET', path: '/groups/:group_id/actors/:actor_id/env_private', op: 'actor_env_private_keys', input: 'none' },
  actor_env_private_update: { method: 'POST', path: '/groups/:group_id/actors/:actor_id/env_private', op: 'actor_env_private_update', input: 'body' },
  // §8.9: a person approves or denies a managed session's pending request from the browser.
  headless_control_state: { method: 'GET', path: '/groups/:group_id/actors/:actor_id/headless/control', op: 'headless_control_state', input: 'none' },
  headless_control: { method: 'POST', path: '/groups/:group_id/actors/:actor_id/headless/control', op: 'headless_control', input: 'body' },

  // Messaging, inbox, ledger reads, terminal tail
  send: { method: 'POST', path: '/groups/:group_id/send', op: 'send', input: 'body', defaults: { message_mode: 'send' } },
  reply: { method: 'POST', path: '/groups/:group_id/reply', op: 'reply', input: 'body' },
  send_cross_group: {
    method: 'POST',
    path: '/groups/:group_id/send_cross_group',
    op: 'send_cross_group',
    input: 'body',
    defaults: { message_mode: 'send' },
  },
  tracked_send: { method: 'POST', path: '/groups/:group_id/tracked_send', op: 'tracked_send', input: 'body' },
  message_history: {
    method: 'GET',
    path: '/groups/:group_id/actors/:actor_id/history',
    op: 'message_history',
    input: 'query',
    query: ['mode', 'query', 'before_event_id', 'limit'],
  },
  message_deliver: { method: 'POST', path: '/groups/:group_id/messages/:source_event_id/deliver', op: 'message_deliver', input: 'body' },
  reply_request_cancel: {
    method: 'POST',
    path: '/groups/:group_id/messages/:source_event_id/reply-request/cancel',
    op: 'reply_request_cancel',
    input: 'none',
  },
  context_get: { method: 'GET', path: '/groups/:group_id/context', op: 'context_get', input: 'query', query: ['detail'] },
  memory_reme_search: { method: 'GET', path: '/groups/:group_id/memory/search', op: 'memory_reme_search', input: 'query', query: ['query', 'max_results'] },
  inbox_peek: { method: 'GET', path: '/groups/:group_id/inbox/:actor_id', op: 'inbox_peek', input: 'query', query: ['limit'] },
  inbox_read: { method: 'POST', path: '/groups/:group_id/inbox/:actor_id/read', op: 'inbox_read', input: 'query', query: ['limit'] },
  ledger_tail: {
    method: 'GET',
    path: '/groups/:group_id/ledger/tail',
    op: 'ledger_tail',
    input: 'query',
    query: ['kinds', 'limit', 'before_event_id', 'with_read_status', 'with_obligation_status'],
  },
  ledger_search: { method: 'GET', path: '/groups/:group_id/ledger/search', op: 'ledger_search', input: 'query', query: ['query', 'kinds', 'limit'] },
  ledger_statuses: { method: 'POST', path: '/groups/:group_id/ledger/statuses', op: 'ledger_statuses', input: 'body' },
  terminal_tail: {
    method: 'GET',
    path: '/groups/:group_id/terminal/tail',
    op: 'terminal_tail',
    input: 'query',
    query: ['actor_id', 'max_chars', 'strip_ansi', 'compact'],
  },

  // Streams (SSE) and runtime activity
  ledger_stream: { method: 'GET', path: '/groups/:group_id/ledger/stream', op: 'events_stream', input: 'sse', query: ['kinds', 'since_event_id'] },
  events_stream: { method: 'GET', path: '/events/stream', op: 'global_events_stream', input: 'sse' },
  runtime_activity_snapshot: { method: 'GET', path: '/groups/:group_id/runtime-activity/snapshot', op: 'runtime_activity_snapshot', input: 'none' },
  runtime_activity_stream: {
    method: 'GET',
    path: '/groups/:group_id/runtime-activity/stream',
    op: 'runtime_activity_stream',
    input: 'sse',
    query: ['replay'],
  },

  // Attachments: multipart uploads, raw downloads
  send_upload: { method: 'POST', path: '/groups/:group_id/send_upload', op: 'send', input: 'form' },
  reply_upload: { method: 'POST', path: '/groups/:group_id/reply_upload', op: 'reply', input: 'form' },
  blob: { method: 'GET', path: '/groups/:group_id/blobs/:name', op: 'blob_read', input: 'raw' },

  // §8.2 branding (its asset files are served by the Web from CCCC_HOME), §8.13 presentation, §8.3 automation
  branding: { method: 'GET', path: '/branding', op: 'branding_get', input: 'none' },
  branding_update: { method: 'PUT', path: '/branding', op: 'branding_update', input: 'patch', admin: true },
  branding_asset: { method: 'GET', path: '/branding/assets/:kind', input: 'raw' },
  presentation: { method: 'GET', path: '/groups/:group_id/presentation', op: 'presentation_get', input: 'none' },
  presentation_clear: { method: 'POST', path: '/groups/:group_id/presentation/clear', op: 'presentation_clear', input: 'body' },
  automation: { method: 'GET', path: '/groups/:group_id/automation', op: 'group_automation_state', input: 'none' },
  automation_update: { method: 'PUT', path: '/groups/:group_id/automation', op: 'group_automation_update', input: 'body' },
  automation_manage: { method: 'POST', path: '/groups/:group_id/automation/manage', op: 'group_automation_manage', input: 'body' },
  automation_reset_baseline: { method: 'POST', path: '/groups/:group_id/automation/reset_baseline', op: 'group_automation_reset_baseline', input: 'body' },
  // Capabilities (§8.3): the library, its allowlist, and per-group bindings and blocks
  capability_overview: { method: 'GET', path: '/capabilities', op: 'capability_overview', input: 'query', query: ['query', 'limit', 'include_indexed'] },
  capability_allowlist: { method: 'GET', path: '/capabilities/allowlist', op: 'capability_allowlist_get', input: 'none' },
  capability_allowlist_validate: { method: 'POST', path: '/capabilities/allowlist/validate', op: 'capability_allowlist_validate', input: 'body' },
  capability_allowlist_update: { method: 'PUT', path: '/capabilities/allowlist', op: 'capability_allowlist_update', input: 'body', admin: true },
  capability_allowlist_reset: { method: 'DELETE', path: '/capabilities/allowlist', op: 'capability_allowlist_reset', input: 'none', admin: true },
  capability_search: {
    method: 'GET',
    path: '/groups/:group_id/capabilities/search',
    op: 'capability_search',
    input: 'query',
    query: ['query', 'kind', 'actor_id', 'include_external', 'limit'],
  },
  capability_state: { method: 'GET', path: '/groups/:group_id/capabilities/state', op: 'capability_state', input: 'query', query: ['actor_id', 'capability_id'] },
  capability_enable: { method: 'POST', path: '/groups/:group_id/capabilities/enable', op: 'capability_enable', input: 'body' },
  capability_block: { method: 'POST', path: '/groups/:group_id/capabilities/block', op: 'capability_block', input: 'body' },
  capability_import: { method: 'POST', path: '/groups/:group_id/capabilities/import', op: 'capability_import', input: 'body' },
  capability_uninstall: { method: 'POST', path: '/groups/:group_id/capabilities/uninstall', op: 'capability_uninstall', input: 'body' },

  // §8.18 Group Space (issue 29): the Space tab
  space_status: { method: 'GET', path: '/groups/:group_id/space', op: 'group_space_status', input: 'none' },
  space_bind: { method: 'POST', path: '/groups/:group_id/space/bind', op: 'group_space_bind', input: 'body' },
  space_ingest: { method: 'POST', path: '/groups/:group_id/space/ingest', op: 'group_space_ingest', input: 'body' },
  space_query: { method: 'POST', path: '/groups/:group_id/space/query', op: 'group_space_query', input: 'body' },
  space_sources: { method: 'GET', path: '/groups/:group_id/space/sources', op: 'group_space_sources', input: 'query', query: ['lane'] },
  space_jobs: { method: 'GET', path: '/groups/:group_id/space/jobs', op: 'group_space_jobs', input: 'query', query: ['lane', 'state', 'limit'] },

  // §8.16 IM bridge (issue 30): the IM settings panel
  im_config: { method: 'GET', path: '/groups/:group_id/im', op: 'im_config_get', input: 'none' },
  im_config_set: { method: 'PUT', path: '/groups/:group_id/im', op: 'im_config_set', input: 'body' },
  im_pending: { method: 'GET', path: '/groups/:group_id/im/pending', op: 'im_list_pending', input: 'none' },
  im_authorized: { method: 'GET', path: '/groups/:group_id/im/authorized', op: 'im_list_authorized', input: 'none' },
  im_bind: { method: 'POST', path: '/groups/:group_id/im/bind', op: 'im_bind_chat', input: 'body' },
  im_reject: { method: 'POST', path: '/groups/:group_id/im/reject', op: 'im_reject_pending', input: 'body' },
  im_revoke: { method: 'POST', path: '/groups/:group_id/im/revoke', op: 'im_revoke_chat', input: 'body' },
  // Settings › Guidance (§ group prompts): the startup preamble, the effective help, actor notes
  group_preamble: { method: 'GET', path: '/groups/:group_id/preamble', op: 'group_preamble_get', input: 'none' },
  group_preamble_set: { method: 'PUT', path: '/groups/:group_id/preamble', op: 'group_preamble_set', input: 'body' },
  group_preamble_reset: { method: 'POST', path: '/groups/:group_id/preamble/reset', op: 'group_preamble_reset', input: 'body' },
  group_help: { method: 'GET', path: '/groups/:group_id/help', op: 'group_help_get', input: 'query', query: ['actor_id'] },
  actor_notes: { method: 'GET', path: '/groups/:group_id/actor-notes', op: 'actor_notes_get', input: 'query', query: ['target_actor_id'] },
  actor_notes_set: { method: 'PUT', path: '/groups/:group_id/actor-notes/:target_actor_id', op: 'actor_notes_set', input: 'body' },
  actor_notes_clear: { method: 'DELETE', path: '/groups/:group_id/actor-notes/:target_actor_id', op: 'actor_notes_clear', input: 'none' },
  // Settings › Profiles: the global actor profiles, admin only (shared by every group). Secrets
  // are write-only: the Web reads key names and sets/unsets/clears values, never reads them.
  actor_profiles: { method: 'GET', path: '/actor-profiles', op: 'actor_profile_list', input: 'none', admin: true },
  actor_profile_upsert: { method: 'PUT', path: '/actor-profiles', op: 'actor_profile_upsert', input: 'body', admin: true },
  actor_profile: { method: 'GET', path: '/actor-profiles/:profile_id', op: 'actor_profile_get', input: 'none', admin: true },
  actor_profile_delete: { method: 'DELETE', path: '/actor-profiles/:profile_id', op: 'actor_profile_delete', input: 'none', admin: true },
  actor_profile_secret_keys: { method: 'GET', path: '/actor-profiles/:profile_id/secrets', op: 'actor_profile_secret_keys', input: 'none', admin: true },
  actor_profile_secret_update: { method: 'POST', path: '/actor-profiles/:profile_id/secrets', op: 'actor_profile_secret_update', input: 'body', admin: true },

  // Access tokens (the Web's own access_tokens.yaml, no daemon op)
  access_tokens: { method: 'GET', path: '/access-tokens', input: 'none', admin: true },
  access_token_create: { method: 'POST', path: '/access-tokens', input: 'body', admin: true },
  access_token_revoke: { method: 'DELETE', path: '/access-tokens/:id', input: 'none', admin: true },

  // §8.3 Voice Secretary (issue 26): settings, documents, transcript and input
  assistant_state: { method: 'GET', path: '/groups/:group_id/assistants', op: 'assistant_state', input: 'query', query: ['assistant_id', 'view', 'session_id', 'document_path'] },
  assistant_settings_update: { method: 'PUT', path: '/groups/:group_id/assistants/:assistant_id/settings', op: 'assistant_settings_update', input: 'patch' },
  assistant_voice_document_list: { method: 'GET', path: '/groups/:group_id/assistants/voice_secretary/documents', op: 'assistant_voice_document_list', input: 'query', query: ['include_archived'] },
  assistant_voice_document_save: { method: 'POST', path: '/groups/:group_id/assistants/voice_secretary/documents', op: 'assistant_voice_document_save', input: 'body' },
  assistant_voice_transcript_append: { method: 'POST', path: '/groups/:group_id/assistants/voice_secretary/transcript', op: 'assistant_voice_transcript_append', input: 'body' },
  assistant_voice_input_append: { method: 'POST', path: '/groups/:group_id/assistants/voice_secretary/input', op: 'assistant_voice_input_append', input: 'body' },
  // Issue 27: the meeting view's lease, archive and model install, and push-to-talk transcription (raw audio body)
  assistant_voice_recording_lease: { method: 'POST', path: '/groups/:group_id/assistants/voice_secretary/recording_lease', op: 'assistant_voice_recording_lease', input: 'body' },
  assistant_voice_document_archive: { method: 'POST', path: '/groups/:group_id/assistants/voice_secretary/documents/archive', op: 'assistant_voice_document_archive', input: 'body' },
  assistant_voice_model_install: { method: 'POST', path: '/groups/:group_id/assistants/voice_secretary/models/install', op: 'assistant_voice_model_install', input: 'body' },
  voice_transcriptions: { method: 'POST', path: '/groups/:group_id/assistants/voice_secretary/transcriptions', input: 'raw', query: ['language', 'owner_id', 'lease_id'] },
  // §8.20 copy groups (small packages through the Web; base64 in JSON) and §8.17 remote access
  group_copy_export: { method: 'POST', path: '/groups/:group_id/copy/export', op: 'group_copy_export', input: 'none', admin: true },
  group_copy_preview_import: { method: 'POST', path: '/group-copy/preview', op: 'group_copy_preview_import', input: 'body', admin: true },
  group_copy_import: { method: 'POST', path: '/group-copy/import', op: 'group_copy_import', input: 'body', admin: true },
  remote_access_state: { method: 'GET', path: '/remote-access', op: 'remote_access_state', input: 'none', admin: true },
  remote_access_configure: { method: 'PUT', path: '/remote-access', op: 'remote_access_configure', input: 'body', admin: true },
  remote_access_start: { method: 'POST', path: '/remote-access/start', op: 'remote_access_start', input: 'none', admin: true },
  remote_access_stop: { method: 'POST', path: '/remote-access/stop', op: 'remote_access_stop', input: 'none', admin: true },
} as const satisfies Record<string, RouteSpec>;

export type WebRoutes = typeof webRoutes;
export type RouteName = keyof WebRoutes;
/** Routes backed by one daemon op. */
export type OpRouteName = { [N in RouteName]: WebRoutes[N] extends { op: OpName } ? N : never }[RouteName];
export type RouteOp<N extends OpRouteName> = WebRoutes[N]['op'];

/** `/groups/:group_id/actors/:actor_id` → `['group_id', 'actor_id']`. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? [Name, ...PathParamNames<Rest>]
  : P extends `${string}:${infer Name}`
    ? [Name]
    : [];
export type RouteParamNames<N extends RouteName> = PathParamNames<WebRoutes[N]['path']>;
type Strings<T extends readonly unknown[]> = { [I in keyof T]: string };
/** One string per path parameter, in path order. */
export type RoutePathArgs<N extends RouteName> = Strings<RouteParamNames<N>>;

/** Op args a route fills itself: its path parameters, and `by` where the op has it. */
export type FilledArgs<N extends OpRouteName> = RouteParamNames<N>[number] | ('by' extends keyof OpArgsInput<RouteOp<N>> ? 'by' : never);

/** The Web's own wire types (no daemon op behind them). */
export interface AccessTokenEntry {
  readonly id: string;
  readonly is_admin?: boolean;
  readonly allowed_groups?: string[];
  readonly user_id?: string;
  readonly created_at?: string;
}
export interface AccessTokenCreateBody {
  readonly is_admin?: boolean;
  readonly allowed_groups?: string[];
  readonly user_id?: string;
}
/** The group settings sections the settings route reads from the group document. */
export const SETTINGS_KEYS = ['messaging', 'delivery', 'automation', 'terminal_transcript'] as const;
export type GroupSettings = { readonly [K in (typeof SETTINGS_KEYS)[number]]?: unknown };

/** Bodies that are not "the op's args less what the route fills". */
interface BodyOverrides {
  /** `stopped` means group_stop; the state may also come as `?state=`. */
  group_state: { state?: GroupState | 'stopped' };
  access_token_create: AccessTokenCreateBody;
}

/** Results that are not the op's own result. */
interface ResultOverrides {
  ready: { status: 'ready'; daemon: { version: string; pid: number } };
  health: { status: 'ok' };
  group_settings: { group_id: string; settings: GroupSettings };
  group_state: OpResult<'group_set_state'> | OpResult<'group_stop'>;
  /** A repeated client_id answers the original message as the preflight types it. */
  reply_upload: OpResult<'reply'> | OpResult<'send'>;
  access_tokens: { tokens: AccessTokenEntry[] };
  access_token_create: AccessTokenEntry & { token: string };
  access_token_revoke: { id: string; revoked: true };
  voice_transcriptions: VoiceTranscriptionResult;
}

/** POST …/voice_secretary/transcriptions (spec §8.3 HTTP Voice Secretary transcription). */
export interface VoiceTranscriptionResult {
  readonly group_id: string;
  readonly assistant: Record<string, unknown>;
  readonly transcript: string;
  readonly mime_type: string;
  readonly language?: string;
  readonly bytes?: number;
  readonly backend: 'assistant_service_local_asr';
  readonly service: Record<string, unknown>;
  readonly asr?: Record<string, unknown>;
}

type OpArgsOf<N extends RouteName> = N extends OpRouteName ? OpArgsInput<RouteOp<N>> : never;
type Flatten<T> = { [K in keyof T]: T[K] };
type Defaulted<N extends RouteName> = WebRoutes[N] extends { defaults: infer D } ? keyof D & string : never;
/** The op's args less what the route fills; what it defaults becomes optional. */
type OpBody<N extends OpRouteName> = Flatten<
  Omit<OpArgsInput<RouteOp<N>>, FilledArgs<N> | Defaulted<N>> & Partial<Pick<OpArgsInput<RouteOp<N>>, Defaulted<N> & keyof OpArgsInput<RouteOp<N>>>>
>;

/** The JSON body of a `body` / `patch` route. */
export type RouteBody<N extends RouteName> = N extends keyof BodyOverrides
  ? BodyOverrides[N]
  : WebRoutes[N]['input'] extends 'patch'
    ? OpArgsOf<N> extends { patch: infer P }
      ? P
      : never
    : N extends OpRouteName
      ? OpBody<N>
      : never;

type QueryKeys<N extends RouteName> = WebRoutes[N] extends { query: readonly (infer K)[] } ? K & string : never;
/** The query of a `query` / `sse` route: the listed op args, all optional (the Web has defaults). */
export type RouteQuery<N extends RouteName> = Partial<Pick<OpArgsOf<N>, QueryKeys<N> & keyof OpArgsOf<N>>>;

/**
 * Multipart fields of the upload routes: the message args the form carries besides the files
 * (`to` and `refs` travel as `to_json` / `refs_json`; text defaults to empty, the mode to send).
 */
export type UploadFields<N extends 'send_upload' | 'reply_upload'> = N extends 'send_upload'
  ? Partial<Pick<OpArgsInput<'send'>, 'text' | 'to' | 'refs' | 'message_mode' | 'client_id' | 'path'>> & { insight?: string }
  : Partial<Pick<OpArgsInput<'reply'>, 'text' | 'to' | 'refs' | 'message_mode' | 'client_id'>> & Pick<OpArgsInput<'reply'>, 'reply_to'> & { insight?: string };

export type RouteResult<N extends RouteName> = N extends keyof ResultOverrides
  ? ResultOverrides[N]
  : N extends OpRouteName
    ? OpResult<RouteOp<N>>
    : never;

/** Optional when every field is. */
type Input<T> = {} extends T ? [input?: T] : [input: T];

/** What the typed client takes after the path arguments, by the route's input kind. */
export type RouteInputArgs<N extends RouteName> = WebRoutes[N]['input'] extends 'body' | 'patch'
  ? Input<RouteBody<N>>
  : WebRoutes[N]['input'] extends 'query' | 'sse'
    ? Input<RouteQuery<N>>
    : WebRoutes[N]['input'] extends 'form'
      ? N extends 'send_upload' | 'reply_upload'
        ? [fields: UploadFields<N>, files: readonly File[]]
        : never
      : [];

export type RouteArgs<N extends RouteName> = RoutePathArgs<N> extends infer P extends readonly string[] ? [...P, ...RouteInputArgs<N>] : never;

// Every `query` and `defaults` list names args of its op: a typo fails to compile here.
type NamesOpArgs = { [N in RouteName]: [QueryKeys<N> | Defaulted<N>] extends [keyof OpArgsOf<N>] ? true : N };
type AssertTrue<T extends true> = T;
export type RouteMapNamesOpArgs = AssertTrue<NamesOpArgs[RouteName]>;

/** `/groups/:group_id/send` with `['g 1']` → `/api/v1/groups/g%201/send`. */
export function routePath(path: string, args: readonly string[]): string {
  let i = 0;
  const filled = path.replace(/:[A-Za-z_]+/g, () => encodeURIComponent(args[i++] ?? ''));
  return API_PREFIX + filled;
}

/** The query string of a route's op args: arrays comma-joined, undefined left out. */
export function routeQuery(query: object | undefined): string {
  if (!query) return '';
  const qs = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    qs.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = qs.toString();
  return text ? `?${text}` : '';
}

/** Path parameter names of a route, at run time (the server reads them from the request path). */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
}
