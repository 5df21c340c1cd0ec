import { Option, type Command } from 'commander';
import type { MessageMode, OpArgsInput } from '@cccc/ipc-protocol';
import { groupContext, guarded, withGroupOptions, type GroupOptions } from '../context.js';
import { formatMessage } from '../format.js';
import { collectList } from '../option-parsers.js';
import { printJson, printLines } from '../output.js';

type SetExit = (code: number) => void;

/** CLI spelling → wire `message_mode`; hyphens are the CLI convention, underscores the protocol's. */
const CLI_MODES: Record<string, MessageMode> = { send: 'send', 'request-reply': 'request_reply', mail: 'mail' };

interface MessageOptions extends GroupOptions {
  to?: string[];
  mode: string;
  insight?: string;
}

/** `cccc send` and `cccc reply`. */
export function registerMessageCommands(program: Command, setExit: SetExit): void {
  withGroupOptions(program.command('send <text>').description('send a chat message'))
    .option('--to <recipients>', 'recipients: actor ids, titles, @all, @peers, @foreman, user (repeatable or comma-separated)', collectList)
    .addOption(new Option('--mode <mode>', 'send, request-reply (asks for a reply) or mail (stored in the Inbox)').choices(Object.keys(CLI_MODES)).default('send'))
    .option('--insight <text>', 'a short note on why this message matters (≤ 1200 chars)')
    .action(
      guarded(setExit, async (text: string, opts: MessageOptions) => {
        const ctx = groupContext(opts);
        const args: OpArgsInput<'send'> = { group_id: ctx.groupId, text, by: ctx.by, message_mode: CLI_MODES[opts.mode]! };
        if (opts.to) args.to = opts.to;
        if (opts.insight !== undefined) args.insight = opts.insight;
        const result = await ctx.client.call('send', args);
        if (ctx.json) return printJson(result);
        printLines([formatMessage(result.event)]);
      }),
    );

  withGroupOptions(program.command('reply <event_id> <text>').description('reply to a message (default recipient: its sender)'))
    .option('--to <recipients>', 'override the recipients (repeatable or comma-separated)', collectList)
    .addOption(new Option('--mode <mode>', 'send or mail (a reply cannot request another reply)').choices(['send', 'mail']))
    .option('--insight <text>', 'a short note on why this reply matters (≤ 1200 chars)')
    .action(
      guarded(setExit, async (eventId: string, text: string, opts: Partial<MessageOptions> & GroupOptions) => {
        const ctx = groupContext(opts);
        const args: OpArgsInput<'reply'> = { group_id: ctx.groupId, reply_to: eventId, text, by: ctx.by };
        if (opts.to) args.to = opts.to;
        if (opts.mode === 'send' || opts.mode === 'mail') args.message_mode = opts.mode;
        if (opts.insight !== undefined) args.insight = opts.insight;
        const result = await ctx.client.call('reply', args);
        if (ctx.json) return printJson(result);
        printLines([formatMessage(result.event)]);
      }),
    );
}
