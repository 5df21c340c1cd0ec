import { z } from 'zod';
import { CommandArgv } from '@cccc/ipc-protocol';
import { callOp, ToolFailure } from '../daemon-port.js';
import { defineTool, type ToolContext } from '../tool.js';

// Foreman-only management tools. Listing hides them from peers; the daemon still applies its
// own permission checks to every op, so hiding is convenience, not the security boundary.

/** Mixed read/write action sets: never labelled read-only (§8.6). */
const MIXED = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false } as const;

function need<T>(value: T | undefined, field: string, action: string): T {
  if (value === undefined) throw new ToolFailure('invalid_request', `${field} is required for action ${action}`, { field });
  return value;
}

export const group = defineTool({
  name: 'cccc_group',
  description: 'Foreman: show the group, set its state (active | idle | paused | stopped), or update title/topic.',
  foremanOnly: true,
  pack: 'pack:group-runtime',
  input: z.object({
    action: z.enum(['show', 'set_state', 'update']),
    state: z.enum(['active', 'idle', 'paused', 'stopped']).optional(),
    title: z.string().optional(),
    topic: z.string().optional(),
  }),
  annotations: MIXED,
  run: async ({ identity, daemon }: ToolContext, args) => {
    const group_id = identity.groupId;
    const by = identity.actorId;
    switch (args.action) {
      case 'show':
        return callOp(daemon, 'group_show', { group_id });
      case 'set_state': {
        const state = need(args.state, 'state', 'set_state');
        // `stopped` is not settable over IPC; it is group_stop (§8.3).
        if (state === 'stopped') return callOp(daemon, 'group_stop', { group_id, by });
        return callOp(daemon, 'group_set_state', { group_id, by, state });
      }
      case 'update':
        return callOp(daemon, 'group_update', {
          group_id,
          by,
          patch: { ...(args.title !== undefined ? { title: args.title } : {}), ...(args.topic !== undefined ? { topic: args.topic } : {}) },
        });
    }
  },
});

export const actor = defineTool({
  name: 'cccc_actor',
  description: 'Foreman: list, add, start, stop, restart or remove actors of this group (actor_id names the target).',
  foremanOnly: true,
  pack: 'pack:group-runtime',
  // actor_id is the target actor here, never the caller; by and group_id stay reserved.
  reservedKeys: ['by', 'group_id'],
  input: z.object({
    action: z.enum(['list', 'add', 'start', 'stop', 'restart', 'remove']),
    actor_id: z.string().min(1).optional(),
    runtime: z.string().min(1).optional(),
    command: CommandArgv.optional(),
    title: z.string().optional(),
  }),
  annotations: MIXED,
  run: async ({ identity, daemon }: ToolContext, args) => {
    const group_id = identity.groupId;
    const by = identity.actorId;
    switch (args.action) {
      case 'list':
        return callOp(daemon, 'actor_list', { group_id });
      case 'add':
        return callOp(daemon, 'actor_add', {
          group_id,
          by,
          ...(args.actor_id ? { actor_id: args.actor_id } : {}),
          ...(args.runtime ? { runtime: args.runtime } : {}),
          ...(args.command ? { command: args.command } : {}),
          ...(args.title !== undefined ? { title: args.title } : {}),
        });
      case 'start':
      case 'stop':
      case 'restart':
      case 'remove': {
        const op = `actor_${args.action}` as const;
        return callOp(daemon, op, { group_id, by, actor_id: need(args.actor_id, 'actor_id', args.action) });
      }
    }
  },
});
