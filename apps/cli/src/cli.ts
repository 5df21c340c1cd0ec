import { CommanderError } from 'commander';
import { buildProgram } from './program.js';

let exitCode = 0;
const program = buildProgram((code) => (exitCode = code));
try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) exitCode = error.exitCode;
  else {
    process.stderr.write(`cccc: ${(error as Error).message}\n`);
    exitCode = 1;
  }
}
process.exitCode = exitCode;
