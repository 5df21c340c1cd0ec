import { z } from 'zod';
import { callOp } from '../daemon-port.js';
import { defineTool } from '../tool.js';

// Tools that only read (cccc_inbox_read is here too, but it consumes and says so).

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const Limit = z.number().int().positive().max(1000);

export const help = defineTool({
  name: 'cccc_help',
  description: "The group's collaboration reference as it applies to you (role-aware).",
  input: z.object({}),
  annotations: READ,
  run: ({ identity, daemon }) =>
    callOp(daemon, 'group_help_get', { group_id: identity.groupId, actor_id: identity.actorId, by: identity.actorId }),
});

export const inboxRead = defineTool({
  name: 'cccc_inbox_read',
  description: 'Read your unread Mail and mark it read (consumes it; cccc_bootstrap only previews).',
  input: z.object({ limit: Limit.optional() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: ({ identity, daemon }, args) =>
    callOp(daemon, 'inbox_read', {
      group_id: identity.groupId,
      actor_id: identity.actorId,
      by: identity.actorId,
      ...(args.limit ? { limit: args.limit } : {}),
    }),
});

export const messageHistory = defineTool({
  name: 'cccc_message_history',
  description: 'Messages you sent or received, newest first (does not consume Mail).',
  input: z.object({
    mode: z.enum(['all', 'send', 'request_reply', 'mail']).optional(),
    query: z.string().optional(),
    before_event_id: z.string().min(1).optional(),
    limit: Limit.optional(),
  }),
  annotations: READ,
  run: ({ identity, daemon }, args) =>
    callOp(daemon, 'message_history', { group_id: identity.groupId, actor_id: identity.actorId, by: identity.actorId, ...args }),
});

export const contextGet = defineTool({
  name: 'cccc_context_get',
  description: 'The group context (brief, tasks, agent states) at a detail level (default overview).',
  input: z.object({ detail: z.enum(['overview', 'summary', 'full']).optional() }),
  annotations: READ,
  run: ({ identity, daemon }, args) => callOp(daemon, 'context_get', { group_id: identity.groupId, detail: args.detail ?? 'overview' }),
});

export const terminal = defineTool({
  name: 'cccc_terminal',
  pack: 'pack:diagnostics',
  description: 'The rendered tail of your own terminal.',
  input: z.object({ max_chars: z.number().int().positive().max(200_000).optional() }),
  annotations: READ,
  run: ({ identity, daemon }, args) =>
    callOp(daemon, 'terminal_tail', {
      group_id: identity.groupId,
      actor_id: identity.actorId,
      by: identity.actorId,
      strip_ansi: true,
      ...(args.max_chars ? { max_chars: args.max_chars } : {}),
    }),
});
