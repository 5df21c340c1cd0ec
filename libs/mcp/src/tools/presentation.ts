import { z } from 'zod';
import { LooseBooleanArg, PresentationCardType, PresentationSlotId } from '@cccc/ipc-protocol';
import { callOp } from '../daemon-port.js';
import { defineTool, type ToolContext } from '../tool.js';

// §8.13 the presentation board: agents publish results (markdown, tables, files, previews) to
// one of four slots the user sees, read the board, or clear their slots.

const MIXED = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false } as const;

export const presentation = defineTool({
  name: 'cccc_presentation',
  description:
    'The group\'s presentation board (4 slots). action "get" reads it; "publish" puts a card in a slot (slot "auto": first empty, else oldest) from content (markdown or inline HTML), table, a workspace path, an http(s) url or a stored blob; "clear" empties one slot or all.',
  input: z.object({
    action: z.enum(['get', 'publish', 'clear']),
    slot: z.union([z.literal('auto'), PresentationSlotId]).optional(),
    card_type: PresentationCardType.optional(),
    title: z.string().optional(),
    summary: z.string().optional(),
    source_label: z.string().optional(),
    source_ref: z.string().optional(),
    content: z.string().optional().describe('Markdown text, or HTML for a web_preview card.'),
    table: z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))]).optional().describe('{columns, rows} or a list of row objects.'),
    path: z.string().optional().describe('A file below the active scope (published as a live link).'),
    url: z.string().optional(),
    blob_rel_path: z.string().optional(),
    all: LooseBooleanArg.optional().describe('clear: every slot.'),
  }),
  annotations: MIXED,
  run: async ({ identity, daemon }: ToolContext, args) => {
    const group_id = identity.groupId;
    const by = identity.actorId;
    const { action, all, slot, ...card } = args;
    switch (action) {
      case 'get':
        return callOp(daemon, 'presentation_get', { group_id });
      case 'publish':
        return callOp(daemon, 'presentation_publish', { group_id, by, ...(slot ? { slot } : {}), ...card });
      case 'clear':
        return callOp(daemon, 'presentation_clear', {
          group_id,
          by,
          ...(slot && slot !== 'auto' ? { slot } : {}),
          ...(all !== undefined ? { all } : {}),
        });
    }
  },
});
