import { Option, type Command } from 'commander';
import { groupContext, guarded, withGroupOptions, type GroupOptions } from '../context.js';
import { collect, parsePositiveInt } from '../option-parsers.js';
import { printJson, printLines } from '../output.js';

type SetExit = (code: number) => void;

/** `cccc memory search | get | write`: the group's Markdown memory (IPC §8.8 memory_reme_*). */
export function registerMemoryCommands(program: Command, setExit: SetExit): void {
  const memory = program.command('memory').description("the group's memory: MEMORY.md and daily notes, full-text searchable");

  withGroupOptions(memory.command('search').description('search the memory, best first').argument('<query...>', 'words to look for'))
    .option('--limit <n>', 'at most this many hits (1..50)', parsePositiveInt, 5)
    .option('--min-score <x>', 'drop hits scored below this (0..1)', Number)
    .action(
      guarded(setExit, async (words: string[], opts: GroupOptions & { limit: number; minScore?: number }) => {
        const ctx = groupContext(opts);
        const r = await ctx.client.call('memory_reme_search', {
          group_id: ctx.groupId,
          query: words.join(' '),
          max_results: opts.limit,
          ...(opts.minScore !== undefined ? { min_score: opts.minScore } : {}),
        });
        if (ctx.json) return printJson(r);
        printLines([
          ...r.hits.flatMap((h) => [`${h.path}:${h.start_line}-${h.end_line}  ${h.score.toFixed(2)}`, `  ${h.snippet.replace(/\s*\n\s*/g, ' ')}`]),
          `${r.count} hit${r.count === 1 ? '' : 's'}`,
        ]);
      }),
    );

  withGroupOptions(memory.command('get').description('print lines of a memory file').argument('<path>', 'absolute, or relative to the memory root (e.g. MEMORY.md)'))
    .option('--offset <n>', 'first line (1-based)', parsePositiveInt)
    .option('--limit <n>', 'number of lines (default 200)', parsePositiveInt)
    .action(
      guarded(setExit, async (path: string, opts: GroupOptions & { offset?: number; limit?: number }) => {
        const ctx = groupContext(opts);
        const r = await ctx.client.call('memory_reme_get', {
          group_id: ctx.groupId,
          path,
          ...(opts.offset !== undefined ? { offset: opts.offset } : {}),
          ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
        });
        if (ctx.json) return printJson(r);
        printLines([r.content]);
      }),
    );

  withGroupOptions(memory.command('write').description('add an entry to MEMORY.md (or to a daily file with --daily)').argument('<content>', 'the text to remember'))
    .option('--daily', "write to the daily file of --date (default today, UTC) instead of MEMORY.md")
    .option('--date <YYYY-MM-DD>', 'the day of a --daily entry')
    .addOption(new Option('--mode <mode>', 'append an entry or replace the whole file').choices(['append', 'replace']))
    .option('--key <idempotency_key>', 'a retry with the same key writes nothing')
    .option('--tag <tag>', 'a tag (repeatable)', collect)
    .action(
      guarded(setExit, async (content: string, opts: GroupOptions & { daily?: boolean; date?: string; mode?: 'append' | 'replace'; key?: string; tag?: string[] }) => {
        const ctx = groupContext(opts);
        const daily = opts.daily === true || opts.date !== undefined;
        const r = await ctx.client.call('memory_reme_write', {
          group_id: ctx.groupId,
          target: daily ? 'daily' : 'memory',
          content,
          actor_id: ctx.by,
          ...(daily ? { date: opts.date ?? new Date().toISOString().slice(0, 10) } : {}),
          ...(opts.mode ? { mode: opts.mode } : {}),
          ...(opts.key ? { idempotency_key: opts.key } : {}),
          ...(opts.tag ? { tags: opts.tag } : {}),
        });
        if (ctx.json) return printJson(r);
        printLines([`${r.status}${r.reason ? ` (${r.reason})` : ''} ${r.file_path}`]);
      }),
    );
}
