import { Option, type Command } from 'commander';
import type { OpArgsInput } from '@cccc/ipc-protocol';
import { cliError, CliErrorCodes } from '../cli-error.js';
import { groupContext, guarded, withGroupOptions, type GroupContext, type GroupOptions } from '../context.js';
import { formatMessage, shortId } from '../format.js';
import { parsePositiveInt } from '../option-parsers.js';
import { printJson, printLines } from '../output.js';

type SetExit = (code: number) => void;

interface ActorViewOptions extends GroupOptions {
  actorId?: string;
  limit?: number;
}

/** `cccc inbox` (Mail, consumed unless --peek) and `cccc history` (non-consuming, §8.7). */
export function registerInboxCommands(program: Command, setExit: SetExit): void {
  withGroupOptions(program.command('inbox').description("read an actor's unread Mail (consumes it unless --peek)"))
    .option('--actor-id <actor_id>', 'whose Inbox (default: --by / $CCCC_ACTOR_ID)')
    .option('--peek', 'show without consuming')
    .option('--limit <n>', 'at most n messages', parsePositiveInt)
    .action(
      guarded(setExit, async (opts: ActorViewOptions & { peek?: boolean }) => {
        const ctx = groupContext(opts);
        const args: OpArgsInput<'inbox_peek'> = { group_id: ctx.groupId, actor_id: actorFor(ctx, opts), by: ctx.by };
        if (opts.limit) args.limit = opts.limit;
        const result = opts.peek ? await ctx.client.call('inbox_peek', args) : await ctx.client.call('inbox_read', args);
        if (ctx.json) return printJson(result);
        if (result.messages.length === 0) return printLines([`no unread Mail for ${args.actor_id}`]);
        const note = opts.peek ? `${result.messages.length} unread, left unread (--peek)` : `${result.messages.length} read and consumed`;
        printLines([...result.messages.map(formatMessage), `(${note})`]);
      }),
    );

  withGroupOptions(program.command('history').description("an actor's message history (sent by or addressed to it), not consuming"))
    .option('--actor-id <actor_id>', 'whose view (default: --by / $CCCC_ACTOR_ID)')
    .addOption(new Option('--mode <mode>', 'only this message mode').choices(['all', 'send', 'request-reply', 'request_reply', 'mail']))
    .option('--query <text>', 'only messages containing this text')
    .option('--before <event_id>', 'page: only messages older than this event')
    .option('--limit <n>', 'at most n messages', parsePositiveInt)
    .action(
      guarded(setExit, async (opts: ActorViewOptions & { mode?: string; query?: string; before?: string }) => {
        const ctx = groupContext(opts);
        const args: OpArgsInput<'message_history'> = { group_id: ctx.groupId, actor_id: actorFor(ctx, opts), by: ctx.by };
        if (opts.mode) args.mode = opts.mode === 'request-reply' ? 'request_reply' : (opts.mode as 'all' | 'send' | 'request_reply' | 'mail');
        if (opts.query) args.query = opts.query;
        if (opts.before) args.before_event_id = opts.before;
        if (opts.limit) args.limit = opts.limit;
        const result = await ctx.client.call('message_history', args);
        if (ctx.json) return printJson(result);
        if (result.messages.length === 0) return printLines(['no messages']);
        // The op pages newest-first; a terminal reads top to bottom, so print oldest first.
        const lines = [...result.messages].reverse().map(formatMessage);
        const oldest = result.messages[result.messages.length - 1]!;
        if (result.has_more) lines.unshift(`(older messages: --before ${oldest.id} [${shortId(oldest.id)}])`);
        printLines(lines);
      }),
    );
}

/** Inbox and history are per actor: `--actor-id`, else the caller itself (`--by` / CCCC_ACTOR_ID). */
function actorFor(ctx: GroupContext, opts: ActorViewOptions): string {
  const actorId = opts.actorId?.trim() || (ctx.by !== 'user' ? ctx.by : '');
  if (!actorId) throw cliError(CliErrorCodes.missingActorId, 'whose messages? pass --actor-id <actor_id> (or --by / CCCC_ACTOR_ID as an actor)');
  return actorId;
}
