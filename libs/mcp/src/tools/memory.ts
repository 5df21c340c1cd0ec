import { z } from 'zod';
import { callOp, ToolFailure } from '../daemon-port.js';
import { defineTool } from '../tool.js';

// The group's memory (memory_reme_*), one tool with the reference's name and actions. It writes
// (action write), so it is never labelled read-only. The author of a write is always the caller.

function need<T>(value: T | undefined, field: string, action: string): T {
  if (value === undefined) throw new ToolFailure('invalid_request', `${field} is required for action ${action}`, { field });
  return value;
}

/** Leave out what the caller did not give (the daemon applies its own defaults). */
const given = <T extends Record<string, unknown>>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

export const memory = defineTool({
  name: 'cccc_memory',
  description:
    "The group's long-lived memory: search it (full text, best first, with file path and line range), get lines of a memory file, " +
    'write a durable fact to MEMORY.md (target memory) or a note to a daily file (target daily, with date), or show the layout. ' +
    'Search before you write; a write that repeats an entry is silent.',
  input: z.object({
    action: z.enum(['search', 'get', 'write', 'layout_get']),
    query: z.string().min(1).optional(),
    max_results: z.number().int().min(1).max(50).optional(),
    min_score: z.number().min(0).max(1).optional(),
    path: z.string().min(1).optional(),
    offset: z.number().int().min(1).optional(),
    limit: z.number().int().min(1).max(5000).optional(),
    target: z.enum(['memory', 'daily']).optional(),
    content: z.string().min(1).optional(),
    date: z.string().optional(),
    mode: z.enum(['append', 'replace']).optional(),
    idempotency_key: z.string().optional(),
    tags: z.array(z.string()).optional(),
    source_refs: z.array(z.string()).optional(),
    supersedes: z.array(z.string()).optional(),
    dedup_intent: z.enum(['new', 'update', 'supersede', 'silent']).optional(),
    dedup_query: z.string().optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: async ({ identity, daemon }, args) => {
    const group_id = identity.groupId;
    switch (args.action) {
      case 'layout_get':
        return callOp(daemon, 'memory_reme_layout_get', { group_id });
      case 'search':
        return callOp(daemon, 'memory_reme_search', given({ group_id, query: need(args.query, 'query', 'search'), max_results: args.max_results, min_score: args.min_score }));
      case 'get':
        return callOp(daemon, 'memory_reme_get', given({ group_id, path: need(args.path, 'path', 'get'), offset: args.offset, limit: args.limit }));
      case 'write': {
        const { action: _, query: _q, max_results: _m, min_score: _s, path: _p, offset: _o, limit: _l, ...rest } = args;
        return callOp(daemon, 'memory_reme_write', {
          ...given(rest),
          group_id,
          target: need(args.target, 'target', 'write'),
          content: need(args.content, 'content', 'write'),
          actor_id: identity.actorId,
        });
      }
    }
  },
});
