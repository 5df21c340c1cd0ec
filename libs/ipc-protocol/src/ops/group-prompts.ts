import { z } from 'zod';
import { defineOp } from './define.js';
import { ActorIdArg, ByArg, GroupIdArg } from './shared.js';

// §8.3 group prompt documents: the startup preamble, the collaboration help and the
// actor-scoped notes kept inside CCCC_HELP.md.

const PromptSource = z.enum(['builtin', 'home']);
const Changed = { changed: z.boolean() };

/** §8.3: the override's UTF-8 encoding must not exceed 512 KiB. */
export const MAX_PREAMBLE_BYTES = 512 * 1024;
const utf8Bytes = (text: string) => new TextEncoder().encode(text).byteLength;

export const PreambleView = z.object({
  group_id: z.string(),
  source: PromptSource,
  filename: z.literal('CCCC_PREAMBLE.md'),
  overridden: z.boolean(),
  content: z.string(),
});

export const group_preamble_get = defineOp({
  summary: 'Read the effective group startup preamble.',
  args: () => z.object({ group_id: GroupIdArg }),
  result: () => PreambleView,
});

export const group_preamble_set = defineOp({
  summary: 'Create or replace the non-empty group preamble override.',
  args: () => z.object({
    group_id: GroupIdArg,
    content: z
      .string()
      .min(1)
      .refine((text) => utf8Bytes(text) <= MAX_PREAMBLE_BYTES, 'content exceeds 512 KiB (UTF-8)'),
    by: ByArg,
  }),
  result: () => PreambleView.extend(Changed),
});

/** The explicit confirmation guards against accidental removal (§8.3). */
export const group_preamble_reset = defineOp({
  summary: 'Delete the group preamble override and restore the built-in body.',
  args: () => z.object({ group_id: GroupIdArg, confirm: z.literal('preamble'), by: ByArg }),
  result: () => PreambleView.extend(Changed),
});

/** actor_id is optional (the actor view to render), so it never yields missing_actor_id. */
export const group_help_get = defineOp({
  summary: 'Read the effective group collaboration reference, optionally as one actor sees it.',
  args: () => z.object({ group_id: GroupIdArg, actor_id: ActorIdArg.optional(), by: ByArg }),
  result: () => z.object({
    group_id: z.string(),
    actor_id: z.string().nullable(),
    source: PromptSource,
    source_path: z.string(),
    filename: z.literal('CCCC_HELP.md'),
    overridden: z.boolean(),
    markdown: z.string(),
  }),
});

export const ActorNoteView = z.object({
  target_actor_id: z.string(),
  content: z.string(),
  source: PromptSource,
  path: z.string(),
});
export const ActorNotesListing = z.object({
  actor_notes: z.array(z.object({ actor_id: z.string(), content: z.string() })),
  source: PromptSource,
  path: z.string(),
});

/** The result is the targeted view when `target_actor_id` is given, else the listing. */
export const actor_notes_get = defineOp({
  summary: 'Read one actor-scoped note, or list all of them.',
  args: () => z.object({ group_id: GroupIdArg, target_actor_id: ActorIdArg.optional(), by: ByArg }),
  result: () => z.union([ActorNoteView, ActorNotesListing]),
});

export const actor_notes_set = defineOp({
  summary: "Create or replace one existing actor's scoped note.",
  args: () => z.object({ group_id: GroupIdArg, target_actor_id: ActorIdArg, content: z.string(), by: ByArg }),
  result: () => ActorNoteView.extend(Changed),
});

export const actor_notes_clear = defineOp({
  summary: "Remove one existing actor's scoped note.",
  args: () => z.object({ group_id: GroupIdArg, target_actor_id: ActorIdArg, by: ByArg }),
  result: () => ActorNoteView.extend(Changed),
});
