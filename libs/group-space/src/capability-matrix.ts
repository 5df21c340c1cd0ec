import { LOCAL_FILE_POLICY } from './space-files.js';

/** What the local provider really does (§8.18 group_space_capabilities: runtime truth). */
export function capabilityMatrix(args: { group_id: string; provider: string; space_root: string; local_scope_attached: boolean; bound: boolean }) {
  const local = args.provider === 'local' && args.bound;
  return {
    group_id: args.group_id,
    provider: 'notebooklm' as const,
    local_scope_attached: args.local_scope_attached,
    space_root: args.space_root,
    local_file_policy: { ...LOCAL_FILE_POLICY, allowed_extensions: [...LOCAL_FILE_POLICY.allowed_extensions] },
    ingest: {
      kinds: ['resource_ingest' as const, 'memory_daily_sync' as const],
      resource_ingest: {
        source_types: ['text', 'file', 'space_folder'],
        required_fields: { text: ['content'], file: ['path'], space_folder: [] },
        optional_fields: { text: ['title'], file: ['title'], space_folder: [] },
        aliases: { text: 'pasted_text', markdown: 'text' },
        examples: {
          text: { source_type: 'text', title: 'Decision log', content: 'We chose SQLite FTS5.' },
          file: { source_type: 'file', path: 'notes/design.md' },
          space_folder: { source_type: 'space_folder' },
        },
      },
    },
    query: {
      options: { source_ids: 'string[]: restrict the answer to these sources' },
      unsupported_options: { language: 'no language parameter', lang: 'no language parameter' },
      examples: { basic: { lane: 'work', query: 'which database did we choose?' } },
    },
    artifacts: {
      actions: local ? ['list', 'generate', 'download'] : [],
      kinds: local ? ['report'] : [],
      options: {},
      aliases: {},
      examples: local ? { report: { action: 'generate', kind: 'report', wait: true } } : {},
    },
    notes: [
      'provider "local" is an extension of this implementation: an embedded SQLite FTS5 provider in the group state, used once a lane is bound to it',
      'NotebookLM: control plane only (credentials, health, auth status); this build has no NotebookLM wire client',
      'MEMORY.md stays local-only and is never ingested',
    ],
    capabilities: local ? ['ingest.text', 'ingest.file', 'ingest.space_folder', 'query', 'sources', 'artifact.report', 'jobs', 'memory_daily_sync'] : ['jobs'],
    unavailable_capabilities: [
      'ingest.context_sync',
      'ingest.url',
      'ingest.youtube',
      'ingest.drive',
      'sync.work',
      'sync.memory',
      ...(local ? [] : ['ingest.text', 'ingest.file', 'ingest.space_folder', 'query', 'sources', 'artifact.report', 'memory_daily_sync']),
    ],
  };
}
