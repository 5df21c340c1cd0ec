import type { Command } from 'commander';
import type { InstalledCheck, RuntimeSpec } from '@cccc/pty-runtime';
import { formatTable } from '../format.js';
import { printJson, printLines } from '../output.js';

export interface RuntimeRow extends InstalledCheck {
  readonly transport: RuntimeSpec['transport'];
  readonly command: readonly string[];
}

/**
 * Every runtime of the catalog with whether its CLI is on PATH (`custom` has no binary). The
 * runtime library is loaded here, by the commands that list runtimes, not at every start.
 */
export async function runtimeRows(pathValue: string | undefined = process.env.PATH): Promise<RuntimeRow[]> {
  const { RUNTIME_CATALOG, detectInstalled } = await (await import('../packages.js')).importPtyRuntime();
  return RUNTIME_CATALOG.map((r) => ({ ...detectInstalled(r.id, pathValue), transport: r.transport, command: r.command }));
}

/** `cccc runtime list`: the agent runtimes this build knows and which are installed here. */
export function registerRuntimeCommands(program: Command, _setExit: (code: number) => void): void {
  const runtime = program.command('runtime').description('agent runtimes (claude, codex, ...)');
  runtime
    .command('list')
    .description('list the known runtimes and whether each is installed on this machine')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const rows = await runtimeRows();
      if (opts.json) return printJson({ runtimes: rows });
      printLines(
        formatTable(
          ['runtime', 'installed', 'transport', 'command', 'path'],
          rows.map((r) => [r.runtime, r.binary ? (r.installed ? 'yes' : 'no') : '-', r.transport, r.command.join(' ') || '(your command)', r.path ?? '']),
        ),
      );
    });
}
