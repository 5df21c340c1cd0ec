import { z } from 'zod';
import { callOp, ToolFailure } from '../daemon-port.js';
import { defineTool, type ToolContext } from '../tool.js';

// The Voice Secretary's own tools (the reference's names and actions). Only the hidden
// voice-secretary actor sees or may call them; the daemon still checks every op. Document content
// is edited directly in the repository at document_path: there is no save action here.

const VOICE = 'voice-secretary';
const MIXED = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;

function need<T>(value: T | undefined, field: string, action: string): T {
  if (value === undefined || value === '') throw new ToolFailure('invalid_request', `${field} is required for action ${action}`, { field });
  return value;
}

const given = <T extends Record<string, unknown>>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

export const voiceSecretaryDocument = defineTool({
  name: 'cccc_voice_secretary_document',
  description:
    'Voice Secretary working documents: read_new_input (the unread transcript / instruction input, advancing the cursor; normally it arrives in the notification\'s input_envelope), ' +
    'list (compact), create (a new empty Markdown file), archive. Edit document content directly in the repository at document_path.',
  onlyFor: VOICE,
  input: z.object({
    action: z.enum(['list', 'read_new_input', 'create', 'archive']),
    include_archived: z.boolean().optional(),
    title: z.string().optional(),
    document_path: z.string().optional(),
  }),
  annotations: MIXED,
  run: async ({ identity, daemon }: ToolContext, args) => {
    const group_id = identity.groupId;
    switch (args.action) {
      case 'list': {
        const r = await callOp(daemon, 'assistant_voice_document_list', given({ group_id, include_archived: args.include_archived }));
        const compact = r.documents.map((d) => ({ document_path: d.document_path, title: d.title, status: d.status, revision_count: d.revision_count, content_chars: d.content_chars }));
        return given({ group_id, documents: compact, active_document_path: r.active_document_path });
      }
      case 'read_new_input':
        return callOp(daemon, 'assistant_voice_document_input_read', { group_id, by: 'assistant:voice_secretary' });
      case 'create':
        return callOp(daemon, 'assistant_voice_document_save', given({ group_id, by: 'assistant:voice_secretary', create_new: true, title: args.title, document_path: args.document_path }));
      case 'archive':
        return callOp(daemon, 'assistant_voice_document_archive', { group_id, by: 'assistant:voice_secretary', document_path: need(args.document_path, 'document_path', 'archive') });
    }
  },
});

export const voiceSecretaryRequest = defineTool({
  name: 'cccc_voice_secretary_request',
  description:
    'Voice Secretary: handoff (send an actionable request to @foreman or one concrete actor; never a broadcast) or report (progress / result of an Ask: working | done | needs_user | failed).',
  onlyFor: VOICE,
  input: z.object({
    action: z.enum(['handoff', 'report']),
    target: z.string().optional(),
    request_text: z.string().optional(),
    summary: z.string().optional(),
    document_path: z.string().optional(),
    artifact_paths: z.array(z.string()).optional(),
    source_event_id: z.string().optional(),
    priority: z.enum(['low', 'normal', 'high', 'urgent']).optional(),
    request_id: z.string().optional(),
    status: z.enum(['working', 'done', 'needs_user', 'failed']).optional(),
    reply_text: z.string().optional(),
    source_summary: z.string().optional(),
    source_urls: z.array(z.string()).optional(),
    checked_at: z.string().optional(),
  }),
  annotations: MIXED,
  run: async ({ identity, daemon }: ToolContext, args) => {
    const group_id = identity.groupId;
    if (args.action === 'report') {
      return callOp(daemon, 'assistant_voice_instruction_feedback', given({
        group_id,
        by: VOICE,
        request_id: need(args.request_id, 'request_id', 'report'),
        status: need(args.status, 'status', 'report'),
        reply_text: args.reply_text,
        document_path: args.document_path,
        artifact_paths: args.artifact_paths,
        source_summary: args.source_summary,
        checked_at: args.checked_at,
        source_urls: args.source_urls,
      }));
    }
    return callOp(daemon, 'assistant_voice_request', given({
      group_id,
      by: VOICE,
      target: need(args.target, 'target', 'handoff'),
      request_text: need(args.request_text, 'request_text', 'handoff'),
      summary: args.summary,
      document_path: args.document_path,
      artifact_paths: args.artifact_paths,
      source_event_id: args.source_event_id,
      priority: args.priority,
    }));
  },
});

export const voiceSecretaryComposer = defineTool({
  name: 'cccc_voice_secretary_composer',
  description: 'Voice Secretary: submit_prompt_draft (the refined prompt for a prompt_refine request; no_op=true when nothing should change).',
  onlyFor: VOICE,
  input: z.object({
    action: z.enum(['submit_prompt_draft']),
    request_id: z.string().min(1),
    draft_text: z.string().optional(),
    no_op: z.boolean().optional(),
    summary: z.string().optional(),
    operation: z.string().optional(),
    composer_snapshot_hash: z.string().optional(),
  }),
  annotations: MIXED,
  run: async ({ identity, daemon }: ToolContext, args) => {
    const { action: _a, ...rest } = args;
    return callOp(daemon, 'assistant_voice_prompt_draft_submit', given({ ...rest, group_id: identity.groupId, by: VOICE }));
  },
});
