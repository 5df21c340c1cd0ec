import { z } from 'zod';
import { CCCSEventV1 } from '../events.js';
import { defineOp } from './define.js';
import { GroupDoc, GroupSummary } from './documents.js';
import { ByArg, GroupIdArg } from './shared.js';

// §8.3 Groups and Scopes: registry, group documents, scopes and group state. Event results stay
// plain CCCSEventV1: the spec does not pin their kinds (REFERENCE_NOTES §1.2 lists group.*).

/** §8.3 attach. group_id is optional: without it the daemon selects or creates one. */
export const attach = defineOp({
  summary: 'Attach a directory scope to a group, or auto-create/select a group for it.',
  args: () => z.object({ path: z.string().min(1), group_id: GroupIdArg.optional(), by: ByArg }),
  result: () => z.object({ group_id: z.string(), scope_key: z.string(), title: z.string().optional() }),
});

export const groups = defineOp({
  summary: 'List known groups (registry summaries).',
  args: () => z.object({}),
  result: () => z.object({ groups: z.array(GroupSummary) }),
});

export const registry_reconcile = defineOp({
  summary: 'Scan registry entries for missing/corrupt groups; optionally remove missing ones.',
  args: () => z.object({ remove_missing: z.boolean().optional() }),
  result: () => z.object({
    dry_run: z.boolean(),
    scanned_groups: z.number().int().nonnegative(),
    missing_group_ids: z.array(z.string()),
    corrupt_group_ids: z.array(z.string()),
    removed_group_ids: z.array(z.string()),
    removed_default_scope_keys: z.array(z.string()),
  }),
});

export const group_show = defineOp({
  summary: 'Read one group document (redacted group.yaml).',
  args: () => z.object({ group_id: GroupIdArg, detail: z.enum(['summary', 'full']).optional() }),
  result: () => z.object({ group: GroupDoc }),
});

export const group_create = defineOp({
  summary: 'Create an empty group.',
  args: () => z.object({ title: z.string().optional(), topic: z.string().optional(), by: ByArg }),
  result: () => z.object({ group_id: z.string(), title: z.string().optional(), event: CCCSEventV1.optional() }),
});

/** Only title and topic are patchable here; other patch keys are dropped like unknown args. */
export const group_update = defineOp({
  summary: 'Update a group title/topic.',
  args: () => z.object({
    group_id: GroupIdArg,
    by: ByArg,
    patch: z.object({ title: z.string().optional(), topic: z.string().optional() }),
  }),
  result: () => z.object({ group_id: z.string(), group: GroupDoc, event: CCCSEventV1 }),
});

export const group_delete = defineOp({
  summary: 'Delete a group and retire everything it owns.',
  args: () => z.object({ group_id: GroupIdArg, by: ByArg }),
  result: () => z.object({ group_id: z.string() }),
});

export const group_use = defineOp({
  summary: 'Set the active scope of a group from an already attached path.',
  args: () => z.object({ group_id: GroupIdArg, path: z.string().min(1), by: ByArg }),
  result: () => z.object({ group_id: z.string(), active_scope_key: z.string(), event: CCCSEventV1 }),
});

export const group_detach_scope = defineOp({
  summary: 'Detach one scope from a group.',
  args: () => z.object({ group_id: GroupIdArg, scope_key: z.string().min(1), by: ByArg }),
  result: () => z.object({ group_id: z.string(), event: CCCSEventV1 }),
});

/** `stopped` is not settable in IPC v1; CLI/MCP may alias it to group_stop (§8.3). */
export const group_set_state = defineOp({
  summary: 'Set a group to active, idle or paused.',
  args: () => z.object({ group_id: GroupIdArg, state: z.enum(['active', 'idle', 'paused']), by: ByArg }),
  result: () => z.object({ group_id: z.string(), state: z.string(), event: CCCSEventV1 }),
});

/**
 * The patch stays an open record: its key set (messaging, delivery, automation, transcript,
 * and this implementation's `messaging.root_body_policy`) is validated by the groups lib,
 * which answers with its own codes.
 */
export const group_settings_update = defineOp({
  summary: 'Update group-scoped messaging/automation/delivery/transcript settings.',
  args: () => z.object({ group_id: GroupIdArg, by: ByArg, patch: z.record(z.string(), z.unknown()) }),
  result: () => z.object({
    group_id: z.string(),
    settings: z.record(z.string(), z.unknown()),
    event: CCCSEventV1,
  }),
});
