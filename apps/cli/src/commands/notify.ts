import { Option, type Command } from 'commander';
import type { OpArgsInput } from '@cccc/ipc-protocol';
import { groupContext, guarded, withGroupOptions, type GroupOptions } from '../context.js';
import { formatEvent } from '../format.js';
import { printJson, printLines } from '../output.js';

interface NotifyOptions extends GroupOptions {
  title?: string;
  kind: string;
  priority?: 'low' | 'normal' | 'high' | 'urgent';
  to?: string;
}

/** `cccc notify`: a system notification (not chat, so nothing to reply to or acknowledge, §8.10). */
export function registerNotifyCommand(program: Command, setExit: (code: number) => void): void {
  withGroupOptions(program.command('notify <message>').description('append a system notification to a group'))
    .option('--title <title>', 'short title')
    .option('--kind <kind>', 'notification kind', 'info')
    .addOption(new Option('--priority <priority>', 'priority').choices(['low', 'normal', 'high', 'urgent']))
    .option('--to <actor_id>', 'notify one actor (default: broadcast)')
    .action(
      guarded(setExit, async (message: string, opts: NotifyOptions) => {
        const ctx = groupContext(opts);
        const args: OpArgsInput<'system_notify'> = { group_id: ctx.groupId, by: ctx.by, kind: opts.kind, message };
        if (opts.title !== undefined) args.title = opts.title;
        if (opts.priority) args.priority = opts.priority;
        if (opts.to) args.target_actor_id = opts.to;
        const result = await ctx.client.call('system_notify', args);
        if (ctx.json) return printJson(result);
        printLines([formatEvent(result.event)]);
      }),
    );
}
