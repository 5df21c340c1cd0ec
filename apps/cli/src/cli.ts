import { CommanderError } from 'commander';
import { buildProgram } from './program.js';

let exitCode = 0;
try {
  // Only the modules of the command argv names are loaded (see program.ts).
  const program = await buildProgram((code) => (exitCode = code), process.argv[2]);
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) exitCode = error.exitCode;
  else {
    process.stderr.write(`cccc: ${(error as Error).message}\n`);
    exitCode = 1;
  }
}
process.exitCode = exitCode;
