import type { Command } from 'commander';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeEndpoint, discoverEndpoint, resolveCcccHome } from '@cccc/ipc-protocol/call';
import { cliEntry } from '../cli-entry.js';
import { clientFor } from '../cli-client.js';
import { isAlive, probeDaemon, spawnDaemon } from '../daemon-process.js';
import { printJson, reportError } from '../output.js';
import { writeStdout } from '../stdio.js';

export function registerDaemonCommands(program: Command, setExit: (code: number) => void): void {
  const daemon = program.command('daemon').description('run, start, stop and inspect the CCCC daemon');

  daemon
    .command('run')
    .description('run the daemon in the foreground')
    .action(async () => {
      // Loaded on demand: every other command is a short-lived client that never needs the kernel.
      const { runDaemonForeground } = await (await import('../packages.js')).importDaemon();
      // The daemon never imports the CLI, so the CLI tells it which entry its agents run.
      setExit(await runDaemonForeground({ cliEntry: cliEntry() }));
    });

  daemon
    .command('start')
    .description('start the daemon in the background (returns once it answers ping)')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const home = resolveCcccHome();
      const running = await probeDaemon(home);
      if (running) {
        if (opts.json) printJson({ ok: true, already_running: true, pid: running.pid, home });
        else writeStdout(`cccc daemon already running (pid ${running.pid}, home ${home})\n`);
        return;
      }
      try {
        const started = await spawnDaemon(home, process.env);
        const where = describeEndpoint(discoverEndpoint(home));
        if (opts.json) printJson({ ok: true, already_running: false, pid: started.pid, home, endpoint: where });
        else writeStdout(`cccc daemon started (pid ${started.pid}, ${where})\n`);
      } catch (error) {
        setExit(reportError(error, opts));
      }
    });

  daemon
    .command('stop')
    .description('stop the daemon of this CCCC_HOME')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const home = resolveCcccHome();
      const running = await probeDaemon(home);
      if (!running) {
        if (opts.json) printJson({ ok: true, stopped: false, reason: 'not_running' });
        else writeStdout('cccc daemon is not running\n');
        return;
      }
      try {
        await clientFor(home).call('shutdown', { expected_pid: running.pid });
        for (let i = 0; i < 200 && isAlive(running.pid); i++) await sleep(25);
        if (opts.json) printJson({ ok: true, stopped: true, pid: running.pid });
        else writeStdout(`cccc daemon stopped (pid ${running.pid})\n`);
      } catch (error) {
        setExit(reportError(error, opts));
      }
    });

  daemon
    .command('status')
    .description('show whether the daemon is running (exit 1 when not)')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const home = resolveCcccHome();
      const ping = await probeDaemon(home);
      if (opts.json) printJson({ ok: true, running: Boolean(ping), home, daemon: ping ?? null });
      else if (ping) {
        writeStdout(
          `running: pid ${ping.pid}, ${ping.implementation} ${ping.version}, ipc v${ping.ipc_v}, ` +
            `${describeEndpoint(discoverEndpoint(home))}, home ${home}\n`,
        );
      } else writeStdout(`not running (home ${home})\n`);
      if (!ping) setExit(1);
    });
}
