import { z } from 'zod';
import { callOp } from '../daemon-port.js';
import { defineTool } from '../tool.js';

// Capability self-service (§8.3): an agent finds packs, skills and MCP servers, turns one on for
// itself (actor or session scope; group scope stays with the foreman and the user, as the daemon
// decides), and reads what it has. Enabling changes this server's tool list; the client is told
// to relist (notifications/tools/list_changed).

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;

export const capabilitySearch = defineTool({
  name: 'cccc_capability_search',
  description: 'Search capability packs, skills and external MCP servers you could enable (local catalog first).',
  input: z.object({
    query: z.string().max(200).optional(),
    kind: z.enum(['mcp_toolpack', 'skill']).optional(),
    include_external: z.boolean().optional(),
    limit: z.number().int().positive().max(200).optional(),
  }),
  annotations: READ,
  run: ({ identity, daemon }, args) =>
    callOp(daemon, 'capability_search', { group_id: identity.groupId, actor_id: identity.actorId, by: identity.actorId, ...args }),
});

export const capabilityEnable = defineTool({
  name: 'cccc_capability_enable',
  description:
    'Enable (or with enabled=false disable) a capability for yourself: scope actor (lasting) or session (ttl_seconds). A skill returns its capsule; a pack or MCP server changes your tool list.',
  input: z.object({
    capability_id: z.string().min(1),
    scope: z.enum(['actor', 'session', 'group']).optional(),
    enabled: z.boolean().optional(),
    ttl_seconds: z.number().int().positive().max(7 * 86400).optional(),
    reason: z.string().max(500).optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  run: ({ identity, daemon }, args) =>
    callOp(daemon, 'capability_enable', { group_id: identity.groupId, actor_id: identity.actorId, by: identity.actorId, scope: args.scope ?? 'actor', ...args }),
});

export const capabilityState = defineTool({
  name: 'cccc_capability_state',
  description: 'What you have enabled, the tools you see, your active skills (with their capsule text) and what is blocked.',
  input: z.object({ capability_id: z.string().min(1).optional() }),
  annotations: { ...READ, openWorldHint: false },
  run: ({ identity, daemon }, args) =>
    callOp(daemon, 'capability_state', { group_id: identity.groupId, actor_id: identity.actorId, by: identity.actorId, ...args }),
});
