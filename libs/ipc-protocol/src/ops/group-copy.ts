import { z } from 'zod';
import { defineOp } from './define.js';
import { ByArg, GroupIdArg } from './shared.js';

// §8.20 Copy Groups: a group's durable state exported/imported as a zip package.

const Rec = z.record(z.string(), z.unknown());

export const GroupCopyManifestShape = z.looseObject({
  kind: z.literal('cccc.group_copy'),
  version: z.number().int(),
  source_group_id: z.string(),
  source_title: z.string().optional(),
  exported_at: z.string(),
  cccc_version: z.string().optional(),
  source_platform: z.string().optional(),
  export_mode: z.literal('group_state_only'),
  workspace_included: z.literal(false),
  contains_secrets: z.literal(false),
  content_digest: z.string().optional(),
  content: Rec.optional(),
});

/** Exactly-one-of is checked by the handler (`invalid_group_copy`), so both keys stay optional here. */
const PackageArgs = {
  package_b64: z.string().optional(),
  package_path: z.string().min(1).max(4096).optional(),
  by: ByArg,
};

export const group_copy_export = defineOp({
  summary: 'Export one group as a base64-encoded zip package (group state only, secrets scrubbed; small packages).',
  args: () => z.object({ group_id: GroupIdArg, by: ByArg }),
  result: () => z.object({ package_b64: z.string(), filename: z.string(), manifest: GroupCopyManifestShape }),
});

export const group_copy_export_file = defineOp({
  summary: 'Export one group as a zip package written to a daemon-local file (large package limit).',
  args: () => z.object({ group_id: GroupIdArg, by: ByArg }),
  result: () => z.object({
    package_path: z.string(),
    package_size_bytes: z.number().int().nonnegative(),
    filename: z.string(),
    manifest: GroupCopyManifestShape,
  }),
});

export const group_copy_preview_import = defineOp({
  summary: 'Validate a copy package and describe its import (conflicts, warnings) without writing anything.',
  args: () => z.object(PackageArgs),
  result: () => z.object({
    preview: z.looseObject({
      manifest: Rec,
      source_group_id: z.string(),
      source_title: z.string(),
      actor_count: z.number().int().nonnegative(),
      actors: z.array(Rec),
      source_workspace_root: z.string(),
      workspace_root_exists: z.boolean(),
      group_id_conflict: z.boolean(),
      target_default_scope_conflict: z.boolean().optional(),
      requires_reconnect: z.record(z.string(), z.boolean()).optional(),
      workspace_included: z.literal(false),
      contains_secrets: z.literal(false),
      runtime_reset: Rec.optional(),
      warnings: z.array(z.string()).optional(),
    }),
  }),
});

export const group_copy_import = defineOp({
  summary: 'Import a copy package into this CCCC_HOME as a stopped group (a new group id when the source id is taken).',
  args: () => z.object({ ...PackageArgs, workspace_root: z.string().min(1).max(4096).optional(), title: z.string().max(200).optional() }),
  result: () => z.object({
    group_id: z.string(),
    source_group_id: z.string(),
    group_id_conflict: z.boolean(),
    workspace_root: z.string(),
    active_scope_key: z.string(),
  }),
});
