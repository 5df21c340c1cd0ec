// `cccc daemon run` without the command tree (bin/cccc.js takes this entry for exactly that
// command line): the daemon is the one long-lived cccc process, and commander with every command
// module (the Web server and its ws among them) would stay resident in it for nothing. Same
// behaviour as commands/daemon.ts's `run` action under cli.ts: the exit code the daemon returns,
// or `cccc: <message>` and 1 when it throws.
import { runDaemonForeground } from '@cccc/daemon';
import { cliEntry } from './cli-entry.js';

try {
  process.exitCode = await runDaemonForeground({ cliEntry: cliEntry() });
} catch (error) {
  process.stderr.write(`cccc: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
