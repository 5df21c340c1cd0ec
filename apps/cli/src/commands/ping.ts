import type { Command } from 'commander';
import { resolveCcccHome } from '@cccc/ipc-protocol/call';
import { clientFor } from '../cli-client.js';
import { printJson, reportError } from '../output.js';
import { writeStdout } from '../stdio.js';

export function registerPingCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('ping')
    .description('ask the daemon who it is')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      try {
        const started = performance.now();
        const result = await clientFor(resolveCcccHome()).call('ping', {});
        const ms = performance.now() - started;
        if (opts.json) printJson(result);
        else {
          writeStdout(
            `pong from ${result.implementation} ${result.version} (pid ${result.pid}, ipc v${result.ipc_v}) in ${ms.toFixed(1)} ms\n`,
          );
        }
      } catch (error) {
        setExit(reportError(error, opts));
      }
    });
}
