import { z } from 'zod';

// §8.13 Presentation: one event per snapshot change (publish, clear).

export const PRESENTATION_SLOT_IDS = ['slot-1', 'slot-2', 'slot-3', 'slot-4'] as const;
export const PresentationSlotId = z.enum(PRESENTATION_SLOT_IDS);
export type PresentationSlotId = z.infer<typeof PresentationSlotId>;
export const PresentationCardType = z.enum(['markdown', 'table', 'image', 'pdf', 'file', 'web_preview']);
export type PresentationCardType = z.infer<typeof PresentationCardType>;

/** `presentation.publish`: what was published where (the card itself is in the snapshot). */
export const PresentationPublishData = z.looseObject({
  slot_id: PresentationSlotId,
  title: z.string(),
  card_type: PresentationCardType,
  source_label: z.string(),
  source_ref: z.string(),
  summary: z.string(),
});

/** `presentation.clear`: `slot_id` only when exactly one occupied slot was cleared, else "". */
export const PresentationClearData = z.looseObject({
  slot_id: z.union([PresentationSlotId, z.literal('')]),
  cleared_all: z.boolean(),
  cleared_slots: z.array(PresentationSlotId),
});
