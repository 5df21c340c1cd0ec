import { Option, type Command } from 'commander';
import type { OpArgsInput, OpResult } from '@cccc/ipc-protocol';
import { cliError, CliErrorCodes } from '../cli-error.js';
import { groupContext, guarded, withGroupOptions, type GroupOptions } from '../context.js';
import { printJson, printLines } from '../output.js';

// `cccc present`: the group's presentation board (§8.13) — publish a card, show, clear.

const SLOTS = ['slot-1', 'slot-2', 'slot-3', 'slot-4'] as const;
type Slot = (typeof SLOTS)[number];

interface PublishOptions extends GroupOptions {
  slot?: 'auto' | Slot;
  type?: OpArgsInput<'presentation_publish'>['card_type'];
  title?: string;
  summary?: string;
  sourceLabel?: string;
  sourceRef?: string;
  path?: string;
  url?: string;
  blob?: string;
  table?: string;
}

interface ClearOptions extends GroupOptions {
  all?: boolean;
}

function boardLines(presentation: OpResult<'presentation_get'>['presentation']): string[] {
  return presentation.slots.map((s) => {
    const mark = presentation.highlight_slot_id === s.slot_id ? '*' : ' ';
    if (!s.card) return `${mark}${s.slot_id}  (empty)`;
    const c = s.card;
    const from = c.source_ref ? ` ← ${c.source_ref}` : '';
    return `${mark}${s.slot_id}  [${c.card_type}] ${c.title} (by ${c.published_by}, ${c.published_at})${from}${c.summary ? ` — ${c.summary}` : ''}`;
  });
}

function parseTable(text: string): NonNullable<OpArgsInput<'presentation_publish'>['table']> {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null) return value as NonNullable<OpArgsInput<'presentation_publish'>['table']>;
  } catch {
    /* reported below */
  }
  throw cliError(CliErrorCodes.invalidRequest, '--table must be JSON: {"columns": [...], "rows": [...]} or a list of row objects', { field: 'table' });
}

export function registerPresentCommands(program: Command, setExit: (code: number) => void): void {
  const present = program.command('present').description("the group's presentation board: publish, show, clear cards");

  withGroupOptions(present.command('publish [content]').description('publish a card (markdown or HTML content, a table, a workspace file, a URL or a blob)'))
    .addOption(new Option('--slot <slot>', 'target slot (auto: first empty, else oldest)').choices(['auto', ...SLOTS]))
    .addOption(new Option('--type <card_type>', 'card type (inferred when omitted)').choices(['markdown', 'table', 'image', 'pdf', 'file', 'web_preview']))
    .option('--title <title>', 'card title')
    .option('--summary <summary>', 'one-line summary')
    .option('--source-label <label>', 'where the content comes from (shown)')
    .option('--source-ref <ref>', 'a reference to the source')
    .option('--path <path>', 'a file below the active scope (published as a live link)')
    .option('--url <url>', 'an http(s) URL')
    .option('--blob <blob_rel_path>', 'a stored blob of the group (state/blobs/...)')
    .option('--table <json>', 'table JSON: {"columns": [...], "rows": [...]} or a list of row objects')
    .action(
      guarded(setExit, async (content: string | undefined, opts: PublishOptions) => {
        const ctx = groupContext(opts);
        const args: OpArgsInput<'presentation_publish'> = { group_id: ctx.groupId, by: ctx.by };
        if (content !== undefined) args.content = content;
        if (opts.slot) args.slot = opts.slot;
        if (opts.type) args.card_type = opts.type;
        if (opts.title !== undefined) args.title = opts.title;
        if (opts.summary !== undefined) args.summary = opts.summary;
        if (opts.sourceLabel !== undefined) args.source_label = opts.sourceLabel;
        if (opts.sourceRef !== undefined) args.source_ref = opts.sourceRef;
        if (opts.path) args.path = opts.path;
        if (opts.url) args.url = opts.url;
        if (opts.blob) args.blob_rel_path = opts.blob;
        if (opts.table !== undefined) args.table = parseTable(opts.table);
        const result = await ctx.client.call('presentation_publish', args);
        if (ctx.json) return printJson(result);
        printLines([`${result.replaced ? 'replaced' : 'published'} ${result.slot_id}: [${result.card.card_type}] ${result.card.title}`]);
      }),
    );

  withGroupOptions(present.command('show').description('show the four slots (* marks the highlighted one)')).action(
    guarded(setExit, async (opts: GroupOptions) => {
      const ctx = groupContext(opts);
      const result = await ctx.client.call('presentation_get', { group_id: ctx.groupId });
      if (ctx.json) return printJson(result);
      printLines(boardLines(result.presentation));
    }),
  );

  withGroupOptions(present.command('clear [slot]').description('clear one slot, or every slot with --all (or no slot)'))
    .option('--all', 'clear every slot')
    .action(
      guarded(setExit, async (slot: string | undefined, opts: ClearOptions) => {
        const ctx = groupContext(opts);
        if (slot !== undefined && !(SLOTS as readonly string[]).includes(slot)) {
          throw cliError(CliErrorCodes.invalidRequest, `slot must be one of ${SLOTS.join(', ')}`, { field: 'slot' });
        }
        const args: OpArgsInput<'presentation_clear'> = { group_id: ctx.groupId, by: ctx.by };
        if (slot) args.slot = slot as Slot;
        if (opts.all) args.all = true;
        const result = await ctx.client.call('presentation_clear', args);
        if (ctx.json) return printJson(result);
        printLines([result.cleared_slots.length > 0 ? `cleared ${result.cleared_slots.join(', ')}` : 'nothing to clear']);
      }),
    );
}
