import type { Command } from 'commander';
import { groupContext, guarded, withGroupOptions, type GroupOptions } from '../context.js';
import { collectList } from '../option-parsers.js';
import { printJson, printLines } from '../output.js';
import { cliError, CliErrorCodes } from '../cli-error.js';

/** `cccc deliver <event_id> --to <actor>` (message_deliver) and `cccc cancel-reply <event_id>`. */
export function registerDeliveryCommands(program: Command, setExit: (code: number) => void): void {
  withGroupOptions(program.command('deliver <event_id>').description('deliver an existing message into actor terminals now (promotes Mail, retries Send)'))
    .option('--to <actors>', 'recipient actor ids (repeatable or comma-separated)', collectList)
    .option('--force-ambiguous', 'retry even where an earlier attempt is ambiguous')
    .action(
      guarded(setExit, async (eventId: string, opts: GroupOptions & { to?: string[]; forceAmbiguous?: boolean }) => {
        if (!opts.to || opts.to.length === 0) throw cliError(CliErrorCodes.invalidRequest, 'name the recipients with --to <actor>', { field: 'to' });
        const ctx = groupContext(opts);
        const result = await ctx.client.call('message_deliver', {
          group_id: ctx.groupId,
          source_event_id: eventId,
          actor_ids: opts.to,
          by: ctx.by,
          ...(opts.forceAmbiguous ? { force_ambiguous: true } : {}),
        });
        if (ctx.json) return printJson(result);
        printLines([`delivery of ${eventId} to ${result.actor_ids.join(',')}: ${result.delivery_state}`]);
      }),
    );

  withGroupOptions(program.command('cancel-reply <event_id>').description('cancel the open reply obligations of a request_reply message')).action(
    guarded(setExit, async (eventId: string, opts: GroupOptions) => {
      const ctx = groupContext(opts);
      const result = await ctx.client.call('reply_request_cancel', { group_id: ctx.groupId, source_event_id: eventId, by: ctx.by });
      if (ctx.json) return printJson(result);
      printLines([`reply request ${eventId} cancelled`]);
    }),
  );
}
