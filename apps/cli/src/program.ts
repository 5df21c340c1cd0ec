import { Command } from 'commander';
import { registerDaemonCommands } from './commands/daemon.js';
import { registerPingCommand } from './commands/ping.js';

/** Build the `cccc` command tree; `setExit` records the process exit code. */
export function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command('cccc')
    .description('CCCC-TS: run several AI coding agents as one durable team')
    .showHelpAfterError()
    .exitOverride();
  registerDaemonCommands(program, setExit);
  registerPingCommand(program, setExit);
  return program;
}
