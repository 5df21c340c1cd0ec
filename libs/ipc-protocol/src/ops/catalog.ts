import type { z } from 'zod';
import type { OpSpec } from './define.js';
import { ping, shutdown } from './core.js';
import { ledger_compact, ledger_snapshot } from './ledger.js';
import { events_stream, global_events_stream, term_attach } from './streams.js';
import { debug_clear_logs, debug_snapshot, debug_tail_logs } from './diagnostics.js';
import { group_automation_manage, group_automation_reset_baseline, group_automation_state, group_automation_update } from './automation.js';
import { presentation_clear, presentation_get, presentation_publish } from './presentation.js';
import { branding_get, branding_update, observability_get, observability_update } from './observability.js';
import {
  attach,
  group_create,
  group_delete,
  group_detach_scope,
  group_set_state,
  group_settings_update,
  group_show,
  group_update,
  group_use,
  groups,
  registry_reconcile,
} from './groups.js';
import {
  actor_notes_clear,
  actor_notes_get,
  actor_notes_set,
  group_help_get,
  group_preamble_get,
  group_preamble_reset,
  group_preamble_set,
} from './group-prompts.js';
import {
  actor_add,
  actor_env_private_keys,
  actor_env_private_update,
  actor_list,
  actor_remove,
  actor_update,
} from './actors.js';
import {
  actor_profile_delete,
  actor_profile_get,
  actor_profile_list,
  actor_profile_secret_copy_from_actor,
  actor_profile_secret_copy_from_profile,
  actor_profile_secret_keys,
  actor_profile_secret_update,
  actor_profile_upsert,
} from './profiles.js';
import { reply, send, send_cross_group, send_files } from './messaging.js';
import { message_deliver, message_upload_preflight, reply_request_cancel } from './delivery.js';
import { inbox_peek, inbox_read, message_history } from './inbox.js';
import { system_notify } from './notify.js';
import { actor_restart, actor_start, actor_stop, group_start, group_stop } from './lifecycle.js';
import { actor_new_session, runtime_list } from './runtime.js';
import { runtime_hermes_mcp_test, runtime_hermes_prepare, runtime_hermes_status } from './hermes.js';
import { headless_control, headless_control_state, headless_set_status, headless_status } from './headless.js';
import { ledger_search, ledger_statuses, ledger_tail } from './ledger-read.js';
import { context_get, context_sync, task_list, tracked_send } from './context.js';
import {
  memory_reme_compact,
  memory_reme_context_check,
  memory_reme_daily_flush,
  memory_reme_get,
  memory_reme_index_sync,
  memory_reme_layout_get,
  memory_reme_search,
  memory_reme_write,
} from './memory.js';
import { runtime_activity_snapshot, runtime_activity_stream, runtime_hook_event } from './hooks.js';
import { blob_read, blob_upload } from './blobs.js';
import { group_copy_export, group_copy_export_file, group_copy_import, group_copy_preview_import } from './group-copy.js';
import { remote_access_configure, remote_access_start, remote_access_state, remote_access_stop } from './remote-access.js';
import {
  capability_allowlist_get,
  capability_allowlist_reset,
  capability_allowlist_update,
  capability_allowlist_validate,
  capability_block,
  capability_enable,
  capability_import,
  capability_install_target,
  capability_overview,
  capability_search,
  capability_source_delete,
  capability_state,
  capability_tool_call,
  capability_uninstall,
  capability_visibility,
} from './capabilities.js';
import {
  assistant_settings_update,
  assistant_state,
  assistant_status_update,
  assistant_voice_document_archive,
  assistant_voice_document_delete,
  assistant_voice_document_input_read,
  assistant_voice_document_instruction,
  assistant_voice_document_library,
  assistant_voice_document_library_update,
  assistant_voice_document_list,
  assistant_voice_document_save,
  assistant_voice_ask_requests_clear,
  assistant_voice_instruction_feedback,
  assistant_voice_model_install,
  assistant_voice_recording_lease,
  assistant_voice_request,
  assistant_voice_session_transcript_clear,
  assistant_voice_session_update,
  assistant_voice_transcript_append,
  assistant_voice_input_append,
  assistant_voice_prompt_draft_submit,
  assistant_voice_prompt_draft_ack,
} from './assistants.js';
import {
  term_attachment_status,
  term_resize,
  terminal_clear,
  terminal_history,
  terminal_replay,
  terminal_since,
  terminal_snapshot,
  terminal_tail,
} from './terminal.js';

import {
  group_space_artifact,
  group_space_bind,
  group_space_capabilities,
  group_space_ingest,
  group_space_jobs,
  group_space_provider_auth,
  group_space_provider_credential_status,
  group_space_provider_credential_update,
  group_space_provider_health_check,
  group_space_query,
  group_space_sources,
  group_space_spaces,
  group_space_status,
  group_space_sync,
} from './space.js';

/**
 * Every op this implementation serves, by its spec name. Adding an op is one entry here plus a
 * handler registered with the router; the router refuses handlers for ops missing from it.
 */
export const opCatalog = {
  // §8.1 Core
  ping,
  shutdown,
  debug_snapshot,
  // §8.2 Observability (global)
  observability_get,
  observability_update,
  branding_get,
  branding_update,
  // §8.3 Groups and Scopes
  attach,
  groups,
  registry_reconcile,
  group_show,
  group_create,
  group_update,
  group_delete,
  group_use,
  group_detach_scope,
  group_set_state,
  group_settings_update,
  group_preamble_get,
  group_preamble_set,
  group_preamble_reset,
  group_help_get,
  actor_notes_get,
  actor_notes_set,
  actor_notes_clear,
  group_automation_update,
  group_automation_state,
  group_automation_manage,
  group_automation_reset_baseline,
  group_start,
  group_stop,
  // §8.3 Capabilities
  capability_allowlist_get,
  capability_allowlist_reset,
  capability_allowlist_update,
  capability_allowlist_validate,
  capability_block,
  capability_enable,
  capability_import,
  capability_install_target,
  capability_overview,
  capability_search,
  capability_source_delete,
  capability_state,
  capability_tool_call,
  capability_uninstall,
  capability_visibility,
  // §8.3 Built-in assistants (Voice Secretary, issue 26)
  assistant_state,
  assistant_voice_recording_lease,
  assistant_status_update,
  assistant_settings_update,
  assistant_voice_document_list,
  assistant_voice_document_save,
  assistant_voice_document_archive,
  assistant_voice_document_delete,
  assistant_voice_document_library,
  assistant_voice_document_library_update,
  assistant_voice_session_update,
  assistant_voice_session_transcript_clear,
  assistant_voice_document_instruction,
  assistant_voice_document_input_read,
  assistant_voice_instruction_feedback,
  assistant_voice_ask_requests_clear,
  assistant_voice_request,
  assistant_voice_transcript_append,
  assistant_voice_input_append,
  assistant_voice_prompt_draft_submit,
  assistant_voice_prompt_draft_ack,
  assistant_voice_model_install,
  // §8.4 Actors
  actor_list,
  actor_add,
  actor_update,
  actor_remove,
  actor_start,
  actor_stop,
  actor_restart,
  actor_new_session,
  actor_env_private_keys,
  actor_env_private_update,
  // §8.9 Structured Runtime State (issue 23)
  headless_status,
  headless_set_status,
  headless_control_state,
  headless_control,
  // §8.5 Actor Profiles
  actor_profile_list,
  actor_profile_get,
  actor_profile_upsert,
  actor_profile_delete,
  actor_profile_secret_keys,
  actor_profile_secret_update,
  actor_profile_secret_copy_from_actor,
  actor_profile_secret_copy_from_profile,
  // §8.6 Chat Messaging
  send,
  send_files,
  reply,
  send_cross_group,
  reply_request_cancel,
  message_upload_preflight,
  message_deliver,
  tracked_send,
  // §8.7 Inbox
  inbox_peek,
  inbox_read,
  message_history,
  // §8.8 Context and Tasks
  context_get,
  context_sync,
  task_list,
  memory_reme_layout_get,
  memory_reme_index_sync,
  memory_reme_search,
  memory_reme_get,
  memory_reme_context_check,
  memory_reme_compact,
  memory_reme_daily_flush,
  memory_reme_write,
  // §8.10 System Notifications
  system_notify,
  // §8.11 Terminal diagnostics and attach
  terminal_tail,
  terminal_snapshot,
  terminal_replay,
  terminal_history,
  terminal_since,
  terminal_clear,
  term_resize,
  term_attachment_status,
  debug_tail_logs,
  debug_clear_logs,
  // §8.13 Presentation
  presentation_get,
  presentation_publish,
  presentation_clear,
  // §8.11 / §8.12 / §8.15
  ledger_snapshot,
  ledger_compact,
  events_stream,
  term_attach,
  // Extensions (issue 4), advertised in ping.capabilities
  ledger_tail,
  ledger_search,
  ledger_statuses,
  global_events_stream,
  // Extensions (issue 7), advertised in ping.capabilities
  runtime_hook_event,
  runtime_activity_snapshot,
  runtime_activity_stream,
  // Extensions (issue 8), advertised in ping.capabilities
  blob_upload,
  blob_read,
  // Extension (issue 16), advertised in ping.capabilities
  runtime_list,
  // §8.4 Hermes runtime setup (issue 25)
  runtime_hermes_status,
  runtime_hermes_prepare,
  runtime_hermes_mcp_test,
  // §8.18 Group Space (issue 29)
  group_space_status,
  group_space_spaces,
  group_space_capabilities,
  group_space_bind,
  group_space_ingest,
  group_space_query,
  group_space_sources,
  group_space_artifact,
  group_space_jobs,
  group_space_sync,
  group_space_provider_credential_status,
  group_space_provider_credential_update,
  group_space_provider_health_check,
  group_space_provider_auth,
  // §8.20 copy groups and §8.17 remote access (issue 31)
  group_copy_export,
  group_copy_export_file,
  group_copy_preview_import,
  group_copy_import,
  remote_access_state,
  remote_access_configure,
  remote_access_start,
  remote_access_stop,
} as const satisfies Record<string, OpSpec>;

export type OpCatalog = typeof opCatalog;
export type OpName = keyof OpCatalog;
/** What a caller may send (defaults still optional). */
export type OpArgsInput<K extends OpName> = z.input<OpCatalog[K]['args']>;
/** What a handler receives, after validation. */
export type OpArgs<K extends OpName> = z.output<OpCatalog[K]['args']>;
export type OpResult<K extends OpName> = z.output<OpCatalog[K]['result']>;

export function isOpName(op: string): op is OpName {
  return Object.hasOwn(opCatalog, op);
}
