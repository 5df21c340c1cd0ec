import type { Command } from 'commander';
import { groupContext, guarded, withGroupOptions, type GroupOptions } from '../context.js';
import { parsePositiveInt } from '../option-parsers.js';
import { printJson } from '../output.js';

/** `cccc terminal tail <actor>`: the actor's rendered screen and scrollback (terminal_tail). */
export function registerTerminalCommands(program: Command, setExit: (code: number) => void): void {
  const terminal = program.command('terminal').description("read an actor's live terminal");
  withGroupOptions(terminal.command('tail <actor_id>').description("print the end of an actor's rendered terminal output"))
    .option('--max-chars <n>', 'keep at most this many characters', parsePositiveInt)
    .option('--raw', 'keep ANSI styling and blank lines (default: plain, compact text)')
    .action(
      guarded(setExit, async (actorId: string, opts: GroupOptions & { maxChars?: number; raw?: boolean }) => {
        const ctx = groupContext(opts);
        const result = await ctx.client.call('terminal_tail', {
          group_id: ctx.groupId,
          actor_id: actorId,
          by: ctx.by,
          ...(opts.maxChars ? { max_chars: opts.maxChars } : {}),
          ...(opts.raw ? { strip_ansi: false, compact: false } : {}),
        });
        if (ctx.json) return printJson(result);
        if (result.warning) process.stderr.write(`warning: ${result.warning}\n`);
        process.stdout.write(result.text.endsWith('\n') || result.text === '' ? result.text : result.text + '\n');
      }),
    );
}
