import { CommanderError } from 'commander';
import { buildProgram } from './program.js';
import { writeStderr } from './stdio.js';

// The full CLI. bin/cccc.js requires it as one CommonJS bundle (dist/cli.cjs, built by
// tsup.hooks.config.ts with the workspace libraries it uses inlined): node then starts no ESM
// loader and resolves no package for a command that calls the daemon and prints.
async function main(): Promise<number> {
  let exitCode = 0;
  try {
    // Only the modules of the command argv names are loaded (see program.ts).
    const program = await buildProgram((code) => (exitCode = code), process.argv[2]);
    await program.parseAsync(process.argv);
  } catch (error) {
    if (error instanceof CommanderError) exitCode = error.exitCode;
    else {
      writeStderr(`cccc: ${(error as Error).message}\n`);
      exitCode = 1;
    }
  }
  return exitCode;
}

void main().then((code) => {
  process.exitCode = code;
});
