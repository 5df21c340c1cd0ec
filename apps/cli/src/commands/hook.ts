import type { Command } from 'commander';

// Everything heavier than commander is imported inside the actions: Claude Code waits on
// `cccc hook` at every tool call, so the hook path loads only what it runs.


export function registerHookCommands(program: Command, setExit: (code: number) => void): void {
  const hook = program.command('hook', { hidden: true }).description('provider hook entry points (always exit 0, never print)');
  hook
    .command('claude-activity')
    .allowUnknownOption()
    .allowExcessArguments()
    .description('record this Claude Code session\'s working state under CCCC_ACTIVITY_DIR (standalone, no daemon)')
    .action(async () => {
      const { runClaudeActivityHook } = await import('./activity-recorder.js');
      await runClaudeActivityHook(process.env, process.stdin);
      setExit(0);
    });

  for (const runtime of ['claude', 'codex'] as const) {
    hook
      .command(`${runtime}-state`)
      .allowUnknownOption()
      .allowExcessArguments()
      .description(`hand one ${runtime} hook payload (stdin) to the daemon through runtime_hook_event`)
      .action(async () => {
        // One implementation of the state hooks for both paths (the bin fast path and this
        // command tree): the self-contained module that the hook bundle inlines.
        const { runStateHook } = await import('../hook-fast/state-hook.js');
        await runStateHook(runtime, process.env, process.stdin);
        setExit(0);
      });
  }

  const activity = program
    .command('activity')
    .description('which Claude Code sessions are working, waiting or idle, and for how long')
    .option('--all', 'include ended sessions')
    .option('--json', 'print JSON')
    .action(async (opts: { all?: boolean; json?: boolean }) => {
      const { readActivityRows, formatActivityRows } = await import('./activity.js');
      const rows = await readActivityRows(process.env, new Date(), Boolean(opts.all));
      process.stdout.write(opts.json ? JSON.stringify(rows, null, 2) + '\n' : formatActivityRows(rows).join('\n') + '\n');
    });
  activity
    .command('setup')
    .description('add the recorder hooks to ${CLAUDE_CONFIG_DIR:-~/.claude}/settings.json (merge, idempotent)')
    .option('--print', 'only print the hooks to add')
    .action(async (opts: { print?: boolean }) => {
      const setup = await import('./activity-setup.js');
      const { claudeConfigDir } = await import('./activity-recorder.js');
      const { cliEntry } = await import('../cli-entry.js');
      const command = setup.activityHookCommand(process.execPath, cliEntry());
      if (opts.print) {
        process.stdout.write(JSON.stringify({ hooks: setup.activityHooks(command) }, null, 2) + '\n');
        return;
      }
      const dir = claudeConfigDir(process.env);
      try {
        const outcome = await setup.installActivityHooks(dir, command);
        process.stdout.write(
          outcome === 'installed' ? `added activity hooks to ${dir}/settings.json\n` : `activity hooks already in ${dir}/settings.json\n`,
        );
      } catch (error) {
        process.stderr.write(`error: ${(error as Error).message}\n`);
        setExit(1);
      }
    });
}
