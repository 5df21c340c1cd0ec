import { z } from 'zod';
import { PresentationCardType, PresentationSlotId } from '../kinds/presentation.js';
import { defineOp } from './define.js';
import { ByArg, GroupIdArg, eventOfKind } from './shared.js';

// §8.13 Presentation state: four slots of published cards, snapshot in
// groups/<gid>/state/presentation.json, one ledger event per change.

export const PresentationTable = z.object({ columns: z.array(z.string()), rows: z.array(z.array(z.string())) });

/** Where a card's content comes from: inline text/table, a remote URL or blob, or a live workspace file. */
export const PresentationContent = z.object({
  mode: z.enum(['inline', 'reference', 'workspace_link']),
  markdown: z.string().optional(),
  table: PresentationTable.optional(),
  url: z.string().optional(),
  blob_rel_path: z.string().optional(),
  workspace_rel_path: z.string().optional(),
  mime_type: z.string().optional(),
  file_name: z.string().optional(),
});
export type PresentationContent = z.infer<typeof PresentationContent>;

export const PresentationCard = z.object({
  slot_id: PresentationSlotId,
  title: z.string(),
  card_type: PresentationCardType,
  published_by: z.string(),
  published_at: z.string(),
  source_label: z.string(),
  source_ref: z.string(),
  summary: z.string(),
  content: PresentationContent,
});
export type PresentationCard = z.infer<typeof PresentationCard>;

export const PresentationSlot = z.object({
  slot_id: PresentationSlotId,
  index: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  card: PresentationCard.optional(),
});

export const PresentationSnapshot = z.object({
  v: z.literal(1),
  updated_at: z.string(),
  highlight_slot_id: z.union([z.literal(''), PresentationSlotId]),
  slots: z.array(PresentationSlot).length(4),
});
export type PresentationSnapshot = z.infer<typeof PresentationSnapshot>;

export const presentation_get = defineOp({
  summary: "A group's presentation snapshot (four slots, highlight).",
  args: () => z.object({ group_id: GroupIdArg }),
  result: () => z.object({ group_id: z.string(), presentation: PresentationSnapshot }),
});

export const PresentationPublishArgs = z.object({
  group_id: GroupIdArg,
  by: ByArg,
  slot: z.union([z.literal('auto'), PresentationSlotId]).optional(),
  card_type: PresentationCardType.optional(),
  title: z.string().optional(),
  summary: z.string().optional(),
  source_label: z.string().optional(),
  source_ref: z.string().optional(),
  content: z.string().optional(),
  table: z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))]).optional(),
  path: z.string().optional(),
  url: z.string().optional(),
  blob_rel_path: z.string().optional(),
});
export type PresentationPublishArgs = z.infer<typeof PresentationPublishArgs>;

export const presentation_publish = defineOp({
  summary: 'Publish a card to a presentation slot (auto: first empty, else oldest).',
  args: () => PresentationPublishArgs,
  result: () => z.object({
    group_id: z.string(),
    slot_id: PresentationSlotId,
    card: PresentationCard,
    presentation: PresentationSnapshot,
    replaced: z.boolean(),
    event: eventOfKind('presentation.publish'),
    event_id: z.string(),
  }),
});

export const presentation_clear = defineOp({
  summary: 'Clear one presentation slot, or all of them.',
  args: () => z.object({ group_id: GroupIdArg, by: ByArg, slot: PresentationSlotId.optional(), all: z.boolean().optional() }),
  result: () => z.object({
    group_id: z.string(),
    slot_id: z.union([z.literal(''), PresentationSlotId]),
    cleared_slots: z.array(PresentationSlotId),
    presentation: PresentationSnapshot,
    event: eventOfKind('presentation.clear'),
    event_id: z.string(),
  }),
});

