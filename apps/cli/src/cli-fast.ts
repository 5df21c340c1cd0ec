// Fast entry for `cccc ping|send|reply`: agents and scripts call these constantly, and the full
// CLI spends most of its ~0.3 s loading commander, zod, the op catalog and every command. This
// is bundled into one CommonJS file of node builtins only (dist/cli-fast.cjs, see
// tsup.hooks.config.ts) that bin/cccc.js requires for these three commands; a command line it
// does not fully understand (help, unknown or short options, ...) goes to the full CLI.
import { parseFastArgv } from './fast/argv.js';
import { runFast } from './fast/run.js';

export { FAST_COMMANDS, parseFastArgv } from './fast/argv.js';

/**
 * Run `argv` (process.argv) when the fast path understands it and return true; return false,
 * having done nothing, when the full CLI must run it.
 */
export function tryRunFast(argv: readonly string[]): boolean {
  const command = parseFastArgv(argv);
  if (!command) return false;
  void runFast(command).then((code) => {
    process.exitCode = code;
  });
  return true;
}
