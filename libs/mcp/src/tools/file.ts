import { z } from 'zod';
import { callOp, ToolFailure } from '../daemon-port.js';
import { groupBlobRoot, isBlobPath, readFileHead, resolveInside } from '../file-access.js';
import { defineTool, type ToolContext } from '../tool.js';

const DEFAULT_MAX_BYTES = 256 * 1024;
const MAX_BYTES = 1024 * 1024;

async function activeScopeRoot({ identity, daemon }: ToolContext): Promise<string> {
  const { group } = await callOp(daemon, 'group_show', { group_id: identity.groupId });
  const scope = group.scopes?.find((s) => s.scope_key === group.active_scope_key);
  if (!scope?.url) throw new ToolFailure('missing_project_root', 'the group has no active scope', { group_id: identity.groupId });
  return scope.url;
}

/**
 * Read-only by construction: the action set is read/info/blob_path, and `send` is refused before
 * anything is resolved (§8.6: sending is cccc_file_send, with its own permission and rules).
 */
export const file = defineTool({
  name: 'cccc_file',
  description:
    'Read-only access to a file in the active scope (rel_path relative to its root) or a group blob (rel_path "state/blobs/..."). Actions: read, info, blob_path. To send files use cccc_file_send.',
  input: z.object({
    action: z.enum(['read', 'info', 'blob_path']).default('read'),
    rel_path: z.string().min(1),
    max_bytes: z.number().int().positive().max(MAX_BYTES).optional(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  preflight: (raw) => {
    if (raw.action === 'send') {
      throw new ToolFailure('invalid_action', 'cccc_file is read-only; send files with cccc_file_send', {
        field: 'action',
        action: 'send',
        delivery_state: 'not_sent',
        new_side_effects: false,
      });
    }
  },
  run: async (ctx, args) => {
    const action = args.action;
    const blob = isBlobPath(args.rel_path);
    if (action === 'blob_path' && !blob) {
      throw new ToolFailure('invalid_path', 'blob_path takes a group blob path (state/blobs/...)', { rel_path: args.rel_path });
    }
    const root = blob ? groupBlobRoot(ctx.identity.home, ctx.identity.groupId) : await activeScopeRoot(ctx);
    const resolved = resolveInside(root, args.rel_path, blob ? 'blob' : 'scope');
    if (action === 'blob_path') return { rel_path: resolved.rel_path, path: resolved.path, size: resolved.size };
    if (action === 'info') return { ...resolved };
    return { ...resolved, ...readFileHead(resolved, args.max_bytes ?? DEFAULT_MAX_BYTES) };
  },
});
