import type { z } from 'zod';
import type { CCCSEventV1 } from '../events.js';
import type { KindDataInput } from '../kinds/registry.js';
import type { OpArgsInput, OpCatalog, OpName } from './catalog.js';
import { capabilityExamples } from './capabilities.fixtures.js';
import { spaceExamples } from './space.fixtures.js';

// One valid request and one valid result per op, plus the keys whose absence must fail.
// Shared by the catalog tests; examples follow the spec's shapes and the reference fixture home.

export interface OpExample<K extends OpName> {
  readonly args: OpArgsInput<K>;
  /** Keys that are required: deleting one must fail with that key as the field. */
  readonly required: readonly string[];
  readonly result: z.input<OpCatalog[K]['result']>;
}

const G = 'g_30e7eb3af8cf';
const copyManifest = {
  kind: 'cccc.group_copy' as const,
  version: 1,
  source_group_id: 'g_30e7eb3af8cf',
  source_title: 'team',
  exported_at: '2026-11-30T08:42:44Z',
  export_mode: 'group_state_only' as const,
  workspace_included: false as const,
  contains_secrets: false as const,
  content_digest: `sha256:${'0'.repeat(64)}`,
};
const hermesStatus = {
  runtime: 'hermes' as const,
  setup_ready: false,
  auth_ready: false,
  launch_ready: false,
  hermes_cli: { available: false },
  hermes_home: '/home/u/.hermes',
  profile: { name: 'default' as const, dir: '/home/u/.hermes', exists: false, config_path: '/home/u/.hermes/config.yaml', config_exists: false },
  mcp: { status: 'missing', configured: false, server_name: 'cccc' },
  auth: { auth_path: '/home/u/.hermes/auth.json', auth_file_exists: false, status: 'missing' },
  phase0_gates: [{ id: 'hermes_cli_available', status: 'fail' }],
  issues: ['hermes_cli_missing', 'profile_missing', 'config_missing', 'cccc_mcp_config_not_ready', 'auth_missing'],
};

const remoteAccess = {
  provider: 'manual' as const,
  mode: 'manual',
  require_access_token: true,
  enabled: false,
  status: 'stopped' as const,
  endpoint: 'http://127.0.0.1:8848/',
  updated_at: null,
  diagnostics: { admin_access_token_count: 0 },
  config: { web_host: '127.0.0.1', web_port: 8848 },
  next_steps: [],
};
const ID = '3a1e7837925b493fa696abf137734a58';

export function event<K extends string>(
  kind: K,
  data: KindDataInput<K>,
  id = ID,
): Omit<CCCSEventV1, 'kind' | 'data'> & { kind: K; data: KindDataInput<K> } {
  return {
    v: 1,
    id,
    ts: '2026-11-30T08:42:44.191863Z',
    kind,
    group_id: G,
    scope_key: 's_ea35bf953a18',
    by: 'user',
    data,
  };
}

const standupRule = {
  id: 'standup',
  enabled: false,
  scope: 'group' as const,
  owner_actor_id: null,
  to: ['@foreman'],
  trigger: { kind: 'interval' as const, every_seconds: 900 },
  action: { kind: 'notify' as const, priority: 'normal' as const, title: 'Stand-up reminder', snippet_ref: 'standup', message: '' },
};
const automationView = {
  group_id: G,
  ruleset: { rules: [standupRule], snippets: { standup: 'Stand-up: {{actor_names}}' } },
  status: { standup: { last_fired_at: '', last_error_at: '', last_error: '', next_fire_at: '', completed: false, completed_at: '' } },
  supported_vars: ['interval_minutes', 'group_title', 'actor_names', 'scheduled_at'],
  version: 2,
  server_now: '2026-11-30T08:42:44.191863Z',
  config_path: '/home/user/.cccc/groups/g_30e7eb3af8cf/group.yaml',
};
const presentationSnapshot = {
  v: 1 as const,
  updated_at: '2026-11-30T08:42:44.191863Z',
  highlight_slot_id: '' as const,
  slots: ([1, 2, 3, 4] as const).map((index) => ({ slot_id: `slot-${index}` as const, index })),
};
const markdownCard = {
  slot_id: 'slot-1' as const,
  title: 'Weekly',
  card_type: 'markdown' as const,
  published_by: 'user',
  published_at: '2026-11-30T08:42:44.191863Z',
  source_label: '',
  source_ref: '',
  summary: '',
  content: { mode: 'inline' as const, markdown: '# Weekly' },
};
const chat = (mode: 'send' | 'request_reply' | 'mail') => event('chat.message', { text: 'hello peer1', message_mode: mode, to: ['peer1'] });
const actor = {
  v: 1,
  id: 'peer1',
  title: 'Peer One (cat)',
  command: ['cat'],
  env: {},
  submit: 'enter' as const,
  enabled: false,
  runner: 'pty',
  runtime: 'custom',
};
const preamble = {
  group_id: G,
  source: 'home' as const,
  filename: 'CCCC_PREAMBLE.md' as const,
  overridden: true,
  content: 'Be brief.',
};
const note = {
  target_actor_id: 'peer1',
  content: 'owns the parser',
  source: 'home' as const,
  path: `groups/${G}/prompts/CCCC_HELP.md`,
};
const lifecycle = { actor_id: 'peer1', runner: 'pty', runner_effective: 'pty' };
const byActor = { group_id: G, actor_id: 'peer1', by: 'user' };
const ledgerPage = { events: [chat('send')], has_more: false };

const voiceDoc = { document_id: 'vdoc_1', document_path: 'docs/voice-secretary/notes.md', title: 'notes', status: 'active', content: '# Notes' };
const voiceDocEvent = (action: string) => event('assistant.voice.document', { assistant_id: 'voice_secretary', action, document_path: 'docs/voice-secretary/notes.md' });

export const opExamples: { readonly [K in OpName]: OpExample<K> } = {
  ...capabilityExamples,
  ...spaceExamples,
  ping: {
    args: {},
    required: [],
    result: {
      version: '0.1.0',
      implementation: 'cccc-ts',
      compatibility: 'cccc-ipc-v1',
      pid: 1,
      ts: 't',
      ipc_v: 1,
      capabilities: {},
      executable: '/opt/cccc/bin/cccc.js',
    },
  },
  shutdown: { args: { expected_pid: 42 }, required: [], result: { message: 'shutting down' } },
  debug_snapshot: {
    args: { group_id: G },
    required: [],
    result: {
      developer_mode: true,
      observability: {},
      daemon: { pid: 1, version: '0.1.0', ts: 't' },
      group: { group_id: G, state: 'active', active_scope_key: 's_ea35bf953a18', title: 'refbench' },
      actors: [
        {
          id: 'peer1',
          role: 'foreman',
          runtime: 'custom',
          runner: 'pty',
          runner_effective: 'pty',
          enabled: true,
          running: false,
          unread_count: 0,
        },
      ],
    },
  },
  observability_get: { args: {}, required: [], result: { observability: { developer_mode: false, log_level: 'INFO' } } },
  observability_update: {
    args: { patch: { developer_mode: true } },
    required: ['patch'],
    result: { observability: { developer_mode: true, log_level: 'INFO' } },
  },
  branding_get: { args: {}, required: [], result: { branding: { product_name: 'CCCC' } } },
  branding_update: {
    args: { patch: { product_name: 'Acme' } },
    required: ['patch'],
    result: { branding: { product_name: 'Acme', favicon_asset_path: 'state/web_branding/favicon.svg', updated_at: '2026-11-30T08:42:44.191863Z' } },
  },
  attach: {
    args: { path: '/home/user/proj1' },
    required: ['path'],
    result: { group_id: G, scope_key: 's_ea35bf953a18', title: 'proj1' },
  },
  groups: {
    args: {},
    required: [],
    result: {
      groups: [
        {
          group_id: G,
          title: 'refbench',
          created_at: 't',
          updated_at: 't',
          running: false,
          state: 'active',
          topic: 'x',
        },
      ],
    },
  },
  registry_reconcile: {
    args: { remove_missing: true },
    required: [],
    result: {
      dry_run: false,
      scanned_groups: 1,
      missing_group_ids: [],
      corrupt_group_ids: [],
      removed_group_ids: [],
      removed_default_scope_keys: [],
    },
  },
  group_show: {
    args: { group_id: G, detail: 'full' },
    required: ['group_id'],
    result: { group: { group_id: G, state: 'active', actors: [actor] } },
  },
  group_create: {
    args: { title: 'refbench', topic: 'reference capture' },
    required: [],
    result: { group_id: G, title: 'refbench', event: event('group.create', { title: 'refbench', topic: '' }) },
  },
  group_update: {
    args: { group_id: G, patch: { title: 'renamed' } },
    required: ['group_id', 'patch'],
    result: { group_id: G, group: { group_id: G, title: 'renamed' }, event: event('group.update', { patch: { title: 'renamed' } }) },
  },
  group_delete: { args: { group_id: G }, required: ['group_id'], result: { group_id: G } },
  group_use: {
    args: { group_id: G, path: '/home/user/proj1' },
    required: ['group_id', 'path'],
    result: { group_id: G, active_scope_key: 's_ea35bf953a18', event: event('group.set_active_scope', { path: '/work/refbench' }) },
  },
  group_detach_scope: {
    args: { group_id: G, scope_key: 's_ea35bf953a18' },
    required: ['group_id', 'scope_key'],
    result: { group_id: G, event: event('group.detach_scope', { scope_key: 's_ea35bf953a18' }) },
  },
  group_set_state: {
    args: { group_id: G, state: 'paused' },
    required: ['group_id', 'state'],
    result: { group_id: G, state: 'paused', event: event('group.set_state', { old_state: 'active', new_state: 'paused' }) },
  },
  group_settings_update: {
    args: { group_id: G, patch: { default_send_to: 'foreman', messaging: { root_body_policy: 'summary' } } },
    required: ['group_id', 'patch'],
    result: { group_id: G, settings: { default_send_to: 'foreman' }, event: event('group.settings_update', { patch: { default_send_to: 'foreman' } }) },
  },
  group_preamble_get: { args: { group_id: G }, required: ['group_id'], result: preamble },
  group_preamble_set: {
    args: { group_id: G, content: 'Be brief.' },
    required: ['group_id', 'content'],
    result: { ...preamble, changed: true },
  },
  group_preamble_reset: {
    args: { group_id: G, confirm: 'preamble' },
    required: ['group_id', 'confirm'],
    result: { ...preamble, source: 'builtin', overridden: false, changed: true },
  },
  group_help_get: {
    args: { group_id: G, actor_id: 'peer1' },
    required: ['group_id'],
    result: {
      group_id: G,
      actor_id: 'peer1',
      source: 'builtin',
      source_path: 'builtin',
      filename: 'CCCC_HELP.md',
      overridden: false,
      markdown: '# Help',
    },
  },
  actor_notes_get: {
    args: { group_id: G },
    required: ['group_id'],
    result: { actor_notes: [{ actor_id: 'peer1', content: 'x' }], source: 'home', path: 'p' },
  },
  actor_notes_set: {
    args: { group_id: G, target_actor_id: 'peer1', content: 'owns the parser' },
    required: ['group_id', 'target_actor_id', 'content'],
    result: { ...note, changed: true },
  },
  actor_notes_clear: {
    args: { group_id: G, target_actor_id: 'peer1' },
    required: ['group_id', 'target_actor_id'],
    result: { ...note, content: '', changed: true },
  },
  group_start: {
    args: { group_id: G },
    required: ['group_id'],
    result: { group_id: G, started: ['peer1'], event: event('group.start', { started: ['peer1'] }) },
  },
  group_stop: {
    args: { group_id: G },
    required: ['group_id'],
    result: { group_id: G, stopped: ['peer1'], event: event('group.stop', { stopped: ['peer1'] }) },
  },
  assistant_state: {
    args: { group_id: G, assistant_id: 'voice_secretary' },
    required: ['group_id'],
    result: {
      group_id: G,
      assistants: [{ assistant_id: 'voice_secretary', enabled: false, lifecycle: 'disabled' }],
      assistants_by_id: { voice_secretary: { assistant_id: 'voice_secretary' } },
      assistant: { assistant_id: 'voice_secretary', enabled: false, lifecycle: 'disabled' },
    },
  },
  assistant_status_update: {
    args: { group_id: G, assistant_id: 'voice_secretary', lifecycle: 'working', health: { queue: 1 } },
    required: ['group_id', 'assistant_id', 'lifecycle'],
    result: {
      group_id: G,
      assistant: { assistant_id: 'voice_secretary', lifecycle: 'working' },
      event: event('assistant.status.update', { assistant_id: 'voice_secretary', lifecycle: 'working', health: { queue: 1 } }),
    },
  },
  assistant_settings_update: {
    args: { group_id: G, assistant_id: 'voice_secretary', patch: { enabled: true, config: { recognition_backend: 'browser_asr' } } },
    required: ['group_id', 'assistant_id', 'patch'],
    result: {
      group_id: G,
      assistant: { assistant_id: 'voice_secretary', enabled: true, lifecycle: 'idle' },
      event: event('assistant.settings.update', { assistant_id: 'voice_secretary', patch: { enabled: true }, actor_started: false }),
      actor_started: false,
    },
  },
  assistant_voice_document_list: {
    args: { group_id: G, include_archived: true },
    required: ['group_id'],
    result: { group_id: G, documents: [voiceDoc], documents_by_id: { vdoc_1: voiceDoc }, documents_by_path: { 'docs/voice-secretary/notes.md': voiceDoc }, active_document_path: 'docs/voice-secretary/notes.md' },
  },
  assistant_voice_document_save: {
    args: { group_id: G, document_path: 'docs/voice-secretary/notes.md', content: '# Notes' },
    required: ['group_id'],
    result: { group_id: G, document: voiceDoc, event: voiceDocEvent('saved') },
  },
  assistant_voice_document_archive: {
    args: { group_id: G, document_path: 'docs/voice-secretary/notes.md' },
    required: ['group_id', 'document_path'],
    result: { group_id: G, document: { ...voiceDoc, status: 'archived' }, event: voiceDocEvent('archived') },
  },
  assistant_voice_document_delete: {
    args: { group_id: G, document_path: 'docs/voice-secretary/notes.md' },
    required: ['group_id', 'document_path'],
    result: { group_id: G, document: { ...voiceDoc, status: 'deleted' }, event: voiceDocEvent('deleted') },
  },
  assistant_voice_document_library: {
    args: { group_id: G },
    required: ['group_id'],
    result: { folders: [{ folder_id: 'vfold_1', name: 'Meetings' }], root_order: ['folder:vfold_1'], documents: [voiceDoc] },
  },
  assistant_voice_document_library_update: {
    args: { group_id: G, action: 'create_folder', name: 'Meetings' },
    required: ['group_id', 'action'],
    result: { folders: [{ folder_id: 'vfold_1', name: 'Meetings' }], root_order: [], documents: [voiceDoc] },
  },
  assistant_voice_session_update: {
    args: { group_id: G, session_id: 'vs_1', completion_event: 'diarization_ready', patch: { status: 'closed', diarization_ready: true } },
    required: ['group_id', 'session_id', 'patch'],
    result: { group_id: G, session: { session_id: 'vs_1', status: 'closed', diarization_ready: true }, completion_event_id: ID },
  },
  assistant_voice_session_transcript_clear: {
    args: { group_id: G, session_id: 'vs_1' },
    required: ['group_id'],
    result: { group_id: G, session_id: 'vs_1', cleared: true },
  },
  assistant_voice_document_instruction: {
    args: { group_id: G, document_path: 'docs/voice-secretary/notes.md', instruction: 'Summarize the decisions', input_append_id: 'vapp_1' },
    required: ['group_id', 'document_path'],
    result: {
      group_id: G,
      document: voiceDoc,
      request_id: 'vreq_1',
      input_append_id: 'vapp_1',
      ask_request: { request_id: 'vreq_1', status: 'pending' },
      input_event: { input_id: 'vin_1', kind: 'voice_instruction' },
      input_event_created: true,
      input_notify_emitted: true,
    },
  },
  assistant_voice_document_input_read: {
    args: { group_id: G, by: 'voice-secretary' },
    required: ['group_id'],
    result: {
      group_id: G,
      item_count: 1,
      document_count: 1,
      input_text: '## docs/voice-secretary/notes.md\n- [voice_instruction] Summarize the decisions',
      input_batches: [{ document_path: 'docs/voice-secretary/notes.md', item_count: 1, kinds: ['voice_instruction'] }],
      documents: [voiceDoc],
      has_new_input: true,
    },
  },
  assistant_voice_instruction_feedback: {
    args: { group_id: G, by: 'voice-secretary', request_id: 'vreq_1', status: 'done', reply_text: 'Added the risks section.' },
    required: ['group_id', 'request_id', 'status'],
    result: {
      group_id: G,
      assistant: { assistant_id: 'voice_secretary' },
      ask_request: { request_id: 'vreq_1', status: 'done' },
      event: event('assistant.voice.request', { assistant_id: 'voice_secretary', action: 'feedback', request_id: 'vreq_1', status: 'done' }),
    },
  },
  assistant_voice_ask_requests_clear: {
    args: { group_id: G, keep_active: true },
    required: ['group_id'],
    result: { group_id: G, assistant: { assistant_id: 'voice_secretary' }, ask_requests: [], cleared_count: 1, removed_count: 1, kept_count: 0 },
  },
  assistant_voice_request: {
    args: { group_id: G, by: 'voice-secretary', target: '@foreman', request_text: 'Please file the follow-up issue from the meeting.' },
    required: ['group_id', 'request_text'],
    result: {
      group_id: G,
      assistant: { assistant_id: 'voice_secretary' },
      request: { request_id: 'vact_1', target: 'peer1' },
      notify_event: event('system.notify', { kind: 'voice_secretary_action_request', target_actor_id: 'peer1' }),
      event: event('assistant.voice.request', { assistant_id: 'voice_secretary', action: 'request', request_id: 'vact_1' }),
    },
  },
  assistant_voice_transcript_append: {
    args: { group_id: G, session_id: 'vs_tab1_1', segment_id: 'seg-1', text: 'We ship on Friday.', is_final: true, flush: true, trigger: { trigger_kind: 'push_to_talk_stop', capture_mode: 'browser' } },
    required: ['group_id', 'session_id'],
    result: {
      group_id: G,
      assistant: { assistant_id: 'voice_secretary' },
      session_id: 'vs_tab1_1',
      segment: { segment_id: 'seg-1', text: 'We ship on Friday.', transcript_stage: 'live' },
      segment_path: '/home/u/.cccc/voice-secretary/g_30e7eb3af8cf/vs_tab1_1/transcripts/segments.jsonl',
      document: { document_path: 'docs/voice-secretary/notes.md' },
      document_updated: false,
      input_event: { seq: 1, kind: 'asr_transcript', document_path: 'docs/voice-secretary/notes.md' },
      input_event_created: true,
      input_notify_emitted: true,
    },
  },
  assistant_voice_input_append: {
    args: { group_id: G, kind: 'prompt_refine', request_id: 'vprm_1', input_append_id: 'vapp_1', voice_transcript: 'make it shorter' },
    required: ['group_id', 'kind'],
    result: {
      group_id: G,
      assistant: { assistant_id: 'voice_secretary' },
      request_id: 'vprm_1',
      input_append_id: 'vapp_1',
      prompt_request: { request_id: 'vprm_1', status: 'pending' },
      input_event: { seq: 2, kind: 'prompt_refine' },
      input_event_created: true,
      input_notify_emitted: true,
    },
  },
  assistant_voice_prompt_draft_submit: {
    args: { group_id: G, by: 'voice-secretary', request_id: 'vprm_1', draft_text: 'Ship Friday.' },
    required: ['group_id', 'request_id'],
    result: {
      group_id: G,
      assistant: { assistant_id: 'voice_secretary' },
      prompt_draft: { request_id: 'vprm_1', status: 'pending', draft_text: 'Ship Friday.' },
      event: event('assistant.voice.prompt_draft', { assistant_id: 'voice_secretary', request_id: 'vprm_1', action: 'submit', status: 'pending' }),
    },
  },
  assistant_voice_prompt_draft_ack: {
    args: { group_id: G, request_id: 'vprm_1', status: 'applied' },
    required: ['group_id', 'request_id', 'status'],
    result: {
      group_id: G,
      assistant: { assistant_id: 'voice_secretary' },
      prompt_draft: { request_id: 'vprm_1', status: 'applied' },
      event: event('assistant.voice.prompt_draft', { assistant_id: 'voice_secretary', request_id: 'vprm_1', action: 'ack', status: 'applied' }),
    },
  },
  assistant_voice_model_install: {
    args: { group_id: G, model_id: 'zipformer-en-20m' },
    required: ['group_id', 'model_id'],
    result: {
      group_id: G,
      assistant: { assistant_id: 'voice_secretary' },
      model: { model_id: 'zipformer-en-20m', status: 'ready', install_dir: '/home/u/.cccc/cache/voice-models/zipformer-en-20m/active', installed_at: '2026-12-06T10:00:00.000Z', update_available: false },
    },
  },
  assistant_voice_recording_lease: {
    args: { group_id: G, action: 'acquire', owner_id: 'tab-1', dispatch_target: 'composer' },
    required: ['group_id', 'action'],
    result: {
      group_id: G,
      action: 'acquire',
      acquired: true,
      released: false,
      lost: false,
      lease_id: 'vrl_0123456789abcdef0123456789abcdef',
      lease: { owner_id: 'tab-1', group_id: G, dispatch_target: 'composer', by: 'user', expires_at: '2026-11-30T08:43:14.191Z' },
    },
  },
  actor_list: {
    args: { group_id: G, include_unread: true },
    required: ['group_id'],
    result: {
      actors: [
        {
          ...actor,
          role: 'foreman',
          running: false,
          unread_count: 2,
          effective_working_state: 'stopped',
          effective_working_reason: 'not_running',
          effective_working_updated_at: '2026-11-30T08:42:38.902098Z',
          busy: false,
          input_state: 'offline',
          turn_phase: 'unknown_evidence',
          cli_alive: false,
          state_source: 'process',
        },
      ],
    },
  },
  actor_add: {
    args: {
      group_id: G,
      actor_id: 'peer1',
      runtime: 'custom',
      command: ['cat', '', 'a b'],
      env_private: { API_KEY: 'k' },
      submit: 'enter',
    },
    required: ['group_id'],
    result: { actor, event: event('actor.add', { actor }), running: false },
  },
  actor_update: {
    args: { group_id: G, actor_id: 'peer1', patch: { title: 'Peer', command: ['cat'], enabled: true } },
    required: ['group_id', 'actor_id', 'patch'],
    result: { actor, event: event('actor.update', { actor_id: 'peer1', patch: { title: 'Peer One (cat)' } }) },
  },
  actor_remove: {
    args: byActor,
    required: ['group_id', 'actor_id'],
    result: { actor_id: 'peer1', event: event('actor.remove', { actor_id: 'peer1' }) },
  },
  actor_start: { args: byActor, required: ['group_id', 'actor_id'], result: { actor, event: event('actor.start', lifecycle) } },
  actor_stop: { args: byActor, required: ['group_id', 'actor_id'], result: { actor, event: event('actor.stop', lifecycle) } },
  actor_restart: {
    args: byActor,
    required: ['group_id', 'actor_id'],
    result: { actor, event: event('actor.restart', lifecycle) },
  },
  actor_new_session: {
    args: byActor,
    required: ['group_id', 'actor_id'],
    result: { actor, event: event('actor.new_session', lifecycle), new_session: true },
  },
  headless_status: { args: { group_id: G, actor_id: 'peer1' }, required: ['group_id', 'actor_id'], result: { state: { status: 'idle' } } },
  headless_set_status: {
    args: { group_id: G, actor_id: 'peer1', status: 'working', task_id: 't1' },
    required: ['group_id', 'actor_id', 'status'],
    result: { state: { status: 'working', task_id: 't1' } },
  },
  headless_control_state: { args: { group_id: G, actor_id: 'peer1' }, required: ['group_id', 'actor_id'], result: { state: null } },
  headless_control: {
    args: { group_id: G, actor_id: 'peer1', by: 'user', generation: 'g1', action: 'permission', request_id: 'perm_1', allow: true },
    required: ['group_id', 'actor_id', 'generation', 'action'],
    result: {
      ok: true,
      state: { generation: 'g1', runtime: 'codex', runtime_mode: 'default', runner: 'codex_app_server', running: true, working: true, permissions: [] },
    },
  },
  actor_env_private_keys: {
    args: byActor,
    required: ['group_id', 'actor_id'],
    result: { group_id: G, actor_id: 'peer1', keys: ['API_KEY'] },
  },
  actor_env_private_update: {
    args: { ...byActor, set: { API_KEY: 'k' }, unset: ['OLD'] },
    required: ['group_id', 'actor_id'],
    result: { group_id: G, actor_id: 'peer1', keys: ['API_KEY'] },
  },
  actor_profile_list: { args: {}, required: [], result: { profiles: [{ id: 'ap_1', name: 'cat', usage_count: 1 }] } },
  actor_profile_get: {
    args: { profile_id: 'ap_1' },
    required: ['profile_id'],
    result: { profile: { id: 'ap_1' }, usage: [{ group_id: G, actor_id: 'peer1', actor_title: 'Peer One' }] },
  },
  actor_profile_upsert: {
    args: {
      profile: { name: 'cat', runtime: 'custom', command: 'cat -n', capability_defaults: { default_scope: 'actor' } },
      expected_revision: 3,
    },
    required: ['profile'],
    result: { profile: { id: 'ap_1', name: 'cat', command: ['cat', '-n'] } },
  },
  actor_profile_delete: {
    args: { profile_id: 'ap_1', force_detach: true },
    required: ['profile_id'],
    result: { deleted: true, profile_id: 'ap_1', detached_count: 1, detached: [{ group_id: G, actor_id: 'peer1' }] },
  },
  actor_profile_secret_keys: {
    args: { profile_id: 'ap_1' },
    required: ['profile_id'],
    result: { profile_id: 'ap_1', keys: ['API_KEY'], masked_values: { API_KEY: 'sk-…9f' } },
  },
  actor_profile_secret_update: {
    args: { profile_id: 'ap_1', clear: true },
    required: ['profile_id'],
    result: { profile_id: 'ap_1', keys: [] },
  },
  actor_profile_secret_copy_from_actor: {
    args: { profile_id: 'ap_1', group_id: G, actor_id: 'peer1' },
    required: ['profile_id', 'group_id', 'actor_id'],
    result: { profile_id: 'ap_1', group_id: G, actor_id: 'peer1', keys: ['API_KEY'] },
  },
  actor_profile_secret_copy_from_profile: {
    args: { profile_id: 'ap_2', source_profile_id: 'ap_1' },
    required: ['profile_id', 'source_profile_id'],
    result: { profile_id: 'ap_2', source_profile_id: 'ap_1', keys: ['API_KEY'] },
  },
  send: {
    args: {
      group_id: G,
      text: 'hello peer1',
      to: ['peer1'],
      message_mode: 'request_reply',
      refs: [
        { kind: 'task_ref', task_id: 'T001' },
        { kind: 'url', url: 'https://x' },
      ],
    },
    required: ['group_id', 'text', 'message_mode'],
    result: { event: chat('request_reply'), message_mode: 'request_reply' },
  },
  send_files: {
    args: { group_id: G, paths: ['README.md'], message_mode: 'mail', to: ['peer1'] },
    required: ['group_id', 'paths', 'message_mode'],
    result: { event: chat('mail'), message_mode: 'mail' },
  },
  reply: {
    args: { group_id: G, reply_to: ID, text: 'done' },
    required: ['group_id', 'reply_to', 'text'],
    result: { event: chat('send'), message_mode: 'send' },
  },
  send_cross_group: {
    args: { group_id: G, dst_group_id: 'g_000000000001', text: 'hi', message_mode: 'send' },
    required: ['group_id', 'dst_group_id', 'text', 'message_mode'],
    result: { src_event: chat('send'), dst_event: chat('send') },
  },
  reply_request_cancel: {
    args: { group_id: G, source_event_id: ID },
    required: ['group_id', 'source_event_id'],
    result: { event: event('chat.reply_request.cancelled', { source_event_id: ID }) },
  },
  message_upload_preflight: {
    args: { operation: 'send', group_id: G, message_mode: 'send', to: ['peer1'], has_attachments: true },
    required: ['operation', 'group_id', 'message_mode', 'has_attachments'],
    result: { ready: false, duplicate: true, result: { event: chat('send'), message_mode: 'send' } },
  },
  message_deliver: {
    args: { group_id: G, source_event_id: ID, actor_ids: ['peer1'] },
    required: ['group_id', 'source_event_id', 'actor_ids'],
    result: { event: chat('mail'), actor_ids: ['peer1'], delivery_state: 'claimed' },
  },
  inbox_peek: {
    args: { ...byActor, limit: 50 },
    required: ['group_id', 'actor_id'],
    result: { messages: [chat('mail')], cursor: { event_id: ID, ts: 't' } },
  },
  inbox_read: {
    args: byActor,
    required: ['group_id', 'actor_id'],
    result: {
      messages: [chat('mail')],
      cursor: { event_id: ID, ts: 't', updated_at: 't' },
      event: event('mail.read', { actor_id: 'peer1', event_id: ID }),
    },
  },
  message_history: {
    args: { ...byActor, mode: 'all', limit: 20 },
    required: ['group_id', 'actor_id'],
    result: { messages: [], has_more: false },
  },
  system_notify: {
    args: {
      group_id: G,
      kind: 'info',
      priority: 'high',
      title: 't',
      message: 'm',
      target_actor_id: null,
      im_visibility: 'internal',
    },
    required: ['group_id'],
    result: { event: event('system.notify', { kind: 'info' }) },
  },
  ledger_snapshot: { args: { group_id: G }, required: ['group_id'], result: { snapshot: { count: 27 } } },
  ledger_compact: { args: { group_id: G, force: true }, required: ['group_id'], result: { rotated: true } },
  events_stream: {
    args: { group_id: G, kinds: null, since_event_id: ID },
    required: ['group_id'],
    result: { group_id: G },
  },
  terminal_tail: {
    args: { group_id: G, actor_id: 'peer1', max_chars: 2000, strip_ansi: true },
    required: ['group_id', 'actor_id'],
    result: { group_id: G, actor_id: 'peer1', warning: '', hint: 'attach with since=end_cursor', text: '$ ', end_cursor: 812 },
  },
  terminal_snapshot: {
    args: { group_id: G, actor_id: 'peer1', limit_bytes: 65536 },
    required: ['group_id', 'actor_id'],
    result: { data: '\u001b[H$ ', start_cursor: 0, end_cursor: 812 },
  },
  terminal_replay: {
    args: { group_id: G, actor_id: 'peer1', after: 0, end_cursor: 812, limit_bytes: 524288 },
    required: ['group_id', 'actor_id'],
    result: { replay_end_cursor: 812, history: { data: '$ ', start_cursor: 810, end_cursor: 812, has_more: false, cursor_expired: false } },
  },
  terminal_history: {
    args: { group_id: G, actor_id: 'peer1', before: 400, render_before: 812, limit_bytes: 4096 },
    required: ['group_id', 'actor_id'],
    result: {
      group_id: G,
      actor_id: 'peer1',
      warning: '',
      hint: '',
      text: 'older\n$ ',
      start_cursor: 0,
      end_cursor: 812,
      has_more: false,
      cursor_expired: false,
    },
  },
  terminal_since: {
    args: { group_id: G, actor_id: 'peer1', after: 800, limit_bytes: 4096 },
    required: ['group_id', 'actor_id', 'after'],
    result: { history: { data: 'ok\r\n$ ', start_cursor: 800, end_cursor: 812, has_more: false, cursor_expired: false } },
  },
  terminal_clear: {
    args: { group_id: G, actor_id: 'peer1' },
    required: ['group_id', 'actor_id'],
    result: { group_id: G, actor_id: 'peer1', cleared: true },
  },
  term_resize: {
    args: { group_id: G, actor_id: 'peer1', cols: 120, rows: 40, attachment_id: 3 },
    required: ['group_id', 'actor_id'],
    result: { group_id: G, actor_id: 'peer1', cols: 120, rows: 40 },
  },
  group_automation_update: {
    args: { group_id: G, expected_version: 1, ruleset: { rules: [standupRule], snippets: {} } },
    required: ['group_id', 'ruleset'],
    result: { ...automationView, event: event('group.automation_update', { rules: ['standup'], snippets: ['standup'], version: 2 }) },
  },
  group_automation_state: { args: { group_id: G, by: 'peer1' }, required: ['group_id'], result: automationView },
  group_automation_manage: {
    args: { group_id: G, actions: [{ type: 'set_rule_enabled', rule_id: 'standup', enabled: true }] },
    required: ['group_id', 'actions'],
    result: { ...automationView, applied_actions: [{ type: 'set_rule_enabled', rule_id: 'standup', enabled: true }], changed: true, event: null },
  },
  group_automation_reset_baseline: {
    args: { group_id: G },
    required: ['group_id'],
    result: { ...automationView, event: event('group.automation_update', { rules: ['standup'], snippets: ['standup'], version: 2 }) },
  },
  presentation_get: {
    args: { group_id: G },
    required: ['group_id'],
    result: { group_id: G, presentation: presentationSnapshot },
  },
  presentation_publish: {
    args: { group_id: G, slot: 'auto', title: 'Weekly', content: '# Weekly' },
    required: ['group_id'],
    result: {
      group_id: G,
      slot_id: 'slot-1',
      card: markdownCard,
      presentation: { ...presentationSnapshot, highlight_slot_id: 'slot-1', slots: [{ slot_id: 'slot-1', index: 1, card: markdownCard }, ...presentationSnapshot.slots.slice(1)] },
      replaced: false,
      event: event('presentation.publish', { slot_id: 'slot-1', title: 'Weekly', card_type: 'markdown', source_label: '', source_ref: '', summary: '' }),
      event_id: ID,
    },
  },
  presentation_clear: {
    args: { group_id: G, slot: 'slot-1' },
    required: ['group_id'],
    result: {
      group_id: G,
      slot_id: 'slot-1',
      cleared_slots: ['slot-1'],
      presentation: presentationSnapshot,
      event: event('presentation.clear', { slot_id: 'slot-1', cleared_all: false, cleared_slots: ['slot-1'] }),
      event_id: ID,
    },
  },
  debug_tail_logs: {
    args: { component: 'daemon', lines: 50 },
    required: ['component'],
    result: { component: 'daemon', group_id: '', path: '/home/user/.cccc/daemon/ccccd.log', lines: ['{"level":"info"}'] },
  },
  debug_clear_logs: {
    args: { component: 'daemon' },
    required: ['component'],
    result: { component: 'daemon', group_id: '', path: '/home/user/.cccc/daemon/ccccd.log', cleared: true },
  },
  term_attachment_status: {
    args: { group_id: G, actor_id: 'peer1', attachment_id: 3 },
    required: ['group_id', 'actor_id', 'attachment_id'],
    result: { terminal_writable: true },
  },
  term_attach: {
    args: { group_id: G, actor_id: 'peer1' },
    required: ['group_id', 'actor_id'],
    result: {
      group_id: G,
      actor_id: 'peer1',
      terminal_mode: 'control',
      terminal_writable: true,
      writer_replaced: false,
      replay_cursor: 0,
      replay_end_cursor: 0,
    },
  },
  ledger_tail: {
    args: { group_id: G, limit: 50, with_read_status: true, with_obligation_status: true },
    required: ['group_id', 'limit'],
    result: {
      ...ledgerPage,
      read_status: { [ID]: { peer1: { delivery_state: 'accepted', read: false } } },
      obligation_status: { [ID]: { peer1: { reply_requested: true, replied: false, cancelled: false } } },
    },
  },
  ledger_search: {
    args: { group_id: G, query: 'hello', kinds: ['chat.message'], limit: 20 },
    required: ['group_id', 'query', 'limit'],
    result: ledgerPage,
  },
  ledger_statuses: {
    args: { group_id: G, event_ids: [ID] },
    required: ['group_id', 'event_ids'],
    result: {
      group_id: G,
      statuses: {
        [ID]: { peer1: { delivery_state: 'accepted', read: false, reply_requested: false, replied: false, cancelled: false, delivery_confirmation: 'confirmed' } },
      },
      unknown_event_ids: [],
    },
  },
  global_events_stream: { args: {}, required: [], result: {} },
  // Extensions (issue 7)
  runtime_hook_event: {
    args: {
      group_id: G,
      actor_id: 'peer1',
      runtime: 'codex',
      launch_token: 'token-golden',
      payload: { hook_event_name: 'PreToolUse', session_id: 'session-golden', turn_id: 'turn-golden', tool_use_id: 'operation-golden', tool_name: 'mcp__github__search' },
    },
    required: ['group_id', 'actor_id', 'runtime', 'launch_token', 'payload'],
    result: { accepted: true },
  },
  runtime_activity_snapshot: {
    args: { group_id: G },
    required: ['group_id'],
    result: {
      events: [
        {
          v: 1,
          id: 'event-golden',
          ts: '2026-07-29T00:00:01Z',
          group_id: G,
          actor_id: 'peer1',
          runtime: 'codex',
          activity_id: 'codex:session-golden:tool:operation-golden',
          kind: 'tool',
          status: 'started',
          event_type: 'PreToolUse',
          session_id: 'session-golden',
          turn_id: 'turn-golden',
          operation_id: 'operation-golden',
          tool_name: 'mcp__github__search',
          duration_ms: null,
        },
      ],
    },
  },
  runtime_activity_stream: { args: { group_id: G, replay: true }, required: ['group_id'], result: { group_id: G, replay: true } },
  // Extensions (issue 8)
  blob_upload: {
    args: { group_id: G, name: 'notes.txt', bytes: 12 },
    required: ['group_id', 'name', 'bytes'],
    result: { group_id: G, max_bytes: 20 * 1024 * 1024 },
  },
  blob_read: {
    args: { group_id: G, name: `${'a'.repeat(64)}_notes.txt` },
    required: ['group_id', 'name'],
    result: { group_id: G, name: `${'a'.repeat(64)}_notes.txt`, bytes: 12 },
  },
  // Extension (issue 16)
  runtime_list: {
    args: {},
    required: [],
    result: {
      runtimes: [
        { runtime: 'claude', binary: 'claude', installed: true, path: '/usr/local/bin/claude', transport: 'pty', command: ['claude', '--dangerously-skip-permissions'] },
        { runtime: 'custom', installed: false, transport: 'pty', command: [] },
      ],
    },
  },
  // §8.8 Context and Tasks, §8.6 tracked_send (issue 5)
  context_get: {
    args: { group_id: G, detail: 'summary' },
    required: ['group_id'],
    result: {
      version: '3',
      tasks_version: '2',
      coordination: {
        brief: { objective: 'ship', current_focus: '', constraints: [], project_brief: '', project_brief_stale: false, updated_by: 'user', updated_at: '' },
        tasks: [{ id: 'T001', title: 'parser', status: 'planned', task_type: 'standard', outcome: '', notes: '', checklist: [] }],
      },
      agent_states: [{ id: 'peer1', hot: { focus: null, blockers: [] }, warm: {}, updated_at: null }],
      tasks_summary: { total: 1, done: 0, active: 0, planned: 1, archived: 0, root_count: 1 },
      attention: { blocked: 0, waiting_user: 0, pending_handoffs: 0 },
      meta: {},
    },
  },
  context_sync: {
    args: { group_id: G, ops: [{ op: 'task.create', title: 'parser' }], if_version: '3' },
    required: ['group_id', 'ops'],
    result: { success: true, dry_run: false, changes: [{ index: 0, op: 'task.create', detail: 'created T001' }], version: '4' },
  },
  task_list: {
    args: { group_id: G, status: 'planned', limit: 20 },
    required: ['group_id'],
    result: {
      tasks: [{ id: 'T001', title: 'parser', status: 'planned', task_type: 'standard' }],
      count: 1,
      total_count: 1,
      offset: 0,
      limit: 20,
      has_more: false,
      tasks_version: '2',
      facets: { status_counts: { planned: 1 }, blocked: 0, waiting_user: 0, pending_handoffs: 0, unassigned: 1, assignees: [] },
    },
  },
  tracked_send: {
    args: { group_id: G, title: 'parser', text: 'please take the parser', to: ['peer1'], idempotency_key: 'k1' },
    required: ['group_id', 'title', 'text'],
    result: {
      task_id: 'T001',
      task_ref: { kind: 'task_ref', task_id: 'T001', title: 'parser', status: 'planned' },
      event: chat('send'),
      event_id: ID,
      message_mode: 'send',
      task_created: true,
      message_sent: true,
      partial_failure: false,
    },
  },
  memory_reme_layout_get: {
    args: { group_id: G },
    required: ['group_id'],
    result: {
      group_label: 'team',
      memory_root: '/home/u/.cccc/groups/g_30e7eb3af8cf/state/memory',
      memory_file: '/home/u/.cccc/groups/g_30e7eb3af8cf/state/memory/MEMORY.md',
      daily_dir: '/home/u/.cccc/groups/g_30e7eb3af8cf/state/memory/daily',
      today_daily_file: '/home/u/.cccc/groups/g_30e7eb3af8cf/state/memory/daily/2026-11-30__team.md',
      backend: { name: 'local', vector_enabled: false, fts_enabled: true },
    },
  },
  memory_reme_index_sync: {
    args: { group_id: G, mode: 'scan' },
    required: ['group_id'],
    result: { indexed_files: 2, indexed_chunks: 5, watched_paths: ['/m/MEMORY.md', '/m/daily/2026-11-30__team.md'], last_sync_at: '2026-11-30T08:42:44Z' },
  },
  memory_reme_search: {
    args: { group_id: G, query: 'parser decision', max_results: 5, min_score: 0.1 },
    required: ['group_id', 'query'],
    result: {
      hits: [{ path: '/m/MEMORY.md', start_line: 7, end_line: 12, score: 0.8, snippet: 'the **parser** uses…', source: 'memory', raw_metric: -3.2, metadata: { entry_id: 'mem_0123456789ab' } }],
      count: 1,
      took_ms: 1,
    },
  },
  memory_reme_get: {
    args: { group_id: G, path: 'MEMORY.md', offset: 1, limit: 200 },
    required: ['group_id', 'path'],
    result: { path: '/m/MEMORY.md', offset: 1, limit: 200, total_lines: 3, content: '# MEMORY (team)\n\nfacts' },
  },
  memory_reme_context_check: {
    args: { group_id: G, messages: [{ role: 'user', content: 'hello' }], context_window_tokens: 128_000 },
    required: ['group_id', 'messages'],
    result: {
      needs_compaction: false,
      token_count: 1,
      threshold: 92_000,
      messages_to_summarize: [],
      turn_prefix_messages: [],
      left_messages: [{ role: 'user', name: '', content: 'hello' }],
      is_split_turn: false,
      cut_index: 0,
    },
  },
  memory_reme_compact: {
    args: { group_id: G, messages_to_summarize: [{ role: 'user', content: 'we chose sqlite' }] },
    required: ['group_id', 'messages_to_summarize'],
    result: { summary: 'History summary:\n- USER: we chose sqlite' },
  },
  memory_reme_daily_flush: {
    args: { group_id: G, messages: [{ role: 'user', content: 'we chose sqlite' }], date: '2026-11-30' },
    required: ['group_id', 'messages'],
    result: {
      status: 'written',
      target_file: '/m/daily/2026-11-30__team.md',
      content_hash: 'ab',
      bytes_written: 120,
      signal_pack: { schema: 'v1', token_budget: 320, token_estimate: 0, truncated: false },
    },
  },
  memory_reme_write: {
    args: { group_id: G, target: 'memory', content: 'we chose sqlite', idempotency_key: 'k1' },
    required: ['group_id', 'target', 'content'],
    result: { file_path: '/m/MEMORY.md', line_count: 9, content_hash: 'ab', status: 'written' },
  },
  group_copy_export: {
    args: { group_id: G, by: 'user' },
    required: ['group_id'],
    result: { package_b64: 'UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==', filename: `cccc-group-copy-team-${G}-20261130T084244Z.zip`, manifest: copyManifest },
  },
  group_copy_export_file: {
    args: { group_id: G },
    required: ['group_id'],
    result: { package_path: '/home/u/.cccc/state/group_copy/exports/x.zip', package_size_bytes: 2048, filename: 'x.zip', manifest: copyManifest },
  },
  group_copy_preview_import: {
    args: { package_path: '/tmp/x.zip' },
    required: [],
    result: {
      preview: {
        manifest: copyManifest,
        source_group_id: G,
        source_title: 'team',
        actor_count: 1,
        actors: [{ id: 'lead', title: 'Lead', runtime: 'claude', runner: 'pty', enabled: true }],
        source_workspace_root: '/home/u/repo',
        workspace_root_exists: true,
        group_id_conflict: false,
        target_default_scope_conflict: false,
        requires_reconnect: { im: false },
        workspace_included: false,
        contains_secrets: false,
        runtime_reset: { running: false, state: 'idle' },
        warnings: [],
      },
    },
  },
  group_copy_import: {
    args: { package_b64: 'UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==', workspace_root: '/home/u/repo', title: 'copy' },
    required: [],
    result: { group_id: 'g_0123456789ab', source_group_id: G, group_id_conflict: true, workspace_root: '/home/u/repo', active_scope_key: 's_ea35bf953a18' },
  },
  runtime_hermes_status: { args: {}, required: [], result: hermesStatus },
  runtime_hermes_prepare: {
    args: { auto_enable_tools: true },
    required: [],
    result: { ok: false, status: hermesStatus, error: { code: 'hermes_cli_missing', message: 'the hermes CLI is not on the daemon PATH' } },
  },
  runtime_hermes_mcp_test: {
    args: { group_id: 'g_probe', actor_id: 'hermes-probe' },
    required: [],
    result: { ok: false, argv: ['hermes', 'mcp', 'test', 'cccc'], error: { code: 'hermes_cli_missing', message: 'the hermes CLI is not on the daemon PATH' } },
  },
  remote_access_state: { args: {}, required: [], result: { remote_access: remoteAccess } },
  remote_access_configure: { args: { provider: 'manual', web_host: '0.0.0.0', web_port: 8848 }, required: [], result: { remote_access: remoteAccess } },
  remote_access_start: { args: { by: 'user' }, required: [], result: { remote_access: { ...remoteAccess, enabled: true, status: 'running' } } },
  remote_access_stop: { args: {}, required: [], result: { remote_access: remoteAccess } },
};
