import type { Command } from 'commander';
import type { CCCSEventV1 } from '@cccc/ipc-protocol';
import { IpcError } from '@cccc/ipc-protocol/call';
import { cliError, CliErrorCodes } from '../cli-error.js';
import { groupContext, guarded, withGroupOptions, type GroupContext, type GroupOptions } from '../context.js';
import { formatEvent } from '../format.js';
import { tailSelection, visibleTail } from './tail-kinds.js';
import { collectList, parsePositiveInt } from '../option-parsers.js';
import { printJson, printJsonLine, printLines } from '../output.js';

interface TailOptions extends GroupOptions {
  follow?: boolean;
  kinds?: string[];
  all?: boolean;
  limit: number;
}

/** `cccc tail [-f]`: the latest ledger events, then (with -f) the live stream until Ctrl-C. */
export function registerTailCommand(program: Command, setExit: (code: number) => void): void {
  withGroupOptions(program.command('tail').description('show the latest events of a group; -f keeps following'))
    .option('-f, --follow', 'keep printing new events until Ctrl-C')
    .option('--kinds <kinds>', 'only these event kinds, e.g. chat.message,system.notify (repeatable or comma-separated)', collectList)
    .option('--all', 'every event, also the actor.activity working-state changes hidden by default')
    .option('-n, --limit <n>', 'how many past events to show first', parsePositiveInt, 20)
    .action(
      guarded(setExit, async (opts: TailOptions) => {
        // Following: Ctrl-C counts from the first moment, also while the past events print and
        // the stream opens, so an early interrupt still exits 0 instead of killing the process.
        using interrupt = opts.follow ? catchInterrupt() : undefined;
        const ctx = groupContext(opts);
        const { kinds, hidden } = tailSelection(opts, Boolean(opts.follow));
        const tail = (args: { limit: number; kinds?: string[]; before_event_id?: string }) =>
          ctx.client.call('ledger_tail', { group_id: ctx.groupId, ...args });
        if (!opts.follow) {
          const page = kinds ? await tail({ limit: opts.limit, kinds }) : await visibleTail(tail, hidden, opts.limit);
          if (ctx.json) return printJson({ events: page.events, has_more: page.has_more });
          return printLines(page.events.length > 0 ? page.events.map(formatEvent) : ['no events']);
        }
        // Following prints one JSON event per line under --json, so a consumer can parse as it reads.
        const print = (event: CCCSEventV1) => (ctx.json ? printJsonLine(event) : printLines([formatEvent(event)]));
        // The past page is read with the options of `tail` without -f, so both show the same events.
        const pastKinds = opts.kinds && opts.kinds.length > 0 ? opts.kinds : undefined;
        const start = pastKinds || hidden.size === 0 ? await tailThenResumePoint(tail, pastKinds, opts.limit) : await visibleTail(tail, hidden, opts.limit);
        start.events.forEach(print);
        await follow(ctx, kinds, start.sinceEventId, print, interrupt!);
      }),
    );
}

type LedgerTail = (args: { limit: number; kinds?: string[] }) => Promise<{ events: CCCSEventV1[] }>;

/**
 * The past events to print and the event the live stream resumes after, so that nothing is
 * lost or printed twice. With a filter and nothing matching yet, the stream resumes after the
 * ledger's last event of any kind, read *before* the filtered page: a matching event appended
 * between the two reads is then in the page or after the anchor (an anchor read after the page
 * could be that very event, which would never be printed).
 */
export async function tailThenResumePoint(tail: LedgerTail, kinds: string[] | undefined, limit: number): Promise<{ events: CCCSEventV1[]; sinceEventId: string | undefined }> {
  const anchor = kinds ? (await tail({ limit: 1 })).events.at(-1)?.id : undefined;
  const page = await tail({ limit, ...(kinds ? { kinds } : {}) });
  return { events: page.events, sinceEventId: page.events.at(-1)?.id ?? anchor };
}

interface Interrupt extends Disposable {
  readonly fired: boolean;
  /** Run `fn` on Ctrl-C / SIGTERM, at once when one already came. */
  onFire(fn: () => void): void;
}

function catchInterrupt(): Interrupt {
  let fired = false;
  let hook: (() => void) | undefined;
  const on = () => {
    fired = true;
    hook?.();
  };
  process.once('SIGINT', on);
  process.once('SIGTERM', on);
  return {
    get fired() {
      return fired;
    },
    onFire(fn) {
      hook = fn;
      if (fired) fn();
    },
    [Symbol.dispose]() {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
    },
  };
}

/**
 * Resume the stream right after the last printed event so nothing appended between the two
 * calls is lost or printed twice. Ctrl-C (or SIGTERM) closes the stream and exits 0; the
 * daemon ending the stream, or a stream error (slow_subscriber), is an error exit.
 */
async function follow(
  ctx: GroupContext,
  kinds: string[] | undefined,
  sinceEventId: string | undefined,
  print: (e: CCCSEventV1) => void,
  interrupt: Interrupt,
) {
  const stream = await ctx.client.openEventsStream({
    group_id: ctx.groupId,
    by: ctx.by,
    ...(kinds ? { kinds } : {}),
    ...(sinceEventId ? { since_event_id: sinceEventId } : {}),
  });
  interrupt.onFire(() => stream.close());
  for await (const item of stream) {
    if (item.t === 'event' && 'event' in item) print(item.event as CCCSEventV1);
    else if (item.t === 'error') {
      // The daemon's own code for the failure travels on unchanged.
      const code = typeof item.code === 'string' && item.code !== '' ? item.code : CliErrorCodes.streamError;
      throw new IpcError(code, String(item.message ?? 'the event stream failed'));
    }
  }
  if (!interrupt.fired) throw cliError(CliErrorCodes.streamClosed, 'the daemon closed the event stream');
}
