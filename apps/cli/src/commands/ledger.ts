import type { Command } from 'commander';
import { groupContext, guarded, withGroupOptions, type GroupOptions } from '../context.js';
import { printJson, printLines } from '../output.js';

interface LedgerOptions extends GroupOptions {
  reason?: string;
  force?: boolean;
}

/** `cccc ledger snapshot|compact` (§8.12). */
export function registerLedgerCommands(program: Command, setExit: (code: number) => void): void {
  const ledger = program.command('ledger').description("maintain a group's ledger");
  const describe = (value: Record<string, unknown>) => Object.entries(value).map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);

  withGroupOptions(ledger.command('snapshot').description('count and hash every event of the ledger'))
    .option('--reason <text>', 'recorded with the snapshot')
    .action(
      guarded(setExit, async (opts: LedgerOptions) => {
        const ctx = groupContext(opts);
        const result = await ctx.client.call('ledger_snapshot', { group_id: ctx.groupId, by: ctx.by, ...(opts.reason ? { reason: opts.reason } : {}) });
        if (ctx.json) return printJson(result);
        printLines(describe(result.snapshot));
      }),
    );

  withGroupOptions(ledger.command('compact').description('rotate the active ledger into a sealed segment'))
    .option('--reason <text>', 'recorded with the compaction')
    .option('--force', 'rotate even when the active ledger is small')
    .action(
      guarded(setExit, async (opts: LedgerOptions) => {
        const ctx = groupContext(opts);
        const result = await ctx.client.call('ledger_compact', {
          group_id: ctx.groupId,
          by: ctx.by,
          ...(opts.reason ? { reason: opts.reason } : {}),
          ...(opts.force ? { force: true } : {}),
        });
        if (ctx.json) return printJson(result);
        printLines(describe(result));
      }),
    );
}
