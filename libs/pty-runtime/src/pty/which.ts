import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * Resolves a command the way execvp would, so a missing agent CLI is reported as a clear error
 * before a PTY exists instead of as a child that dies with exit code 127.
 */
export function findExecutable(command: string, pathValue: string | undefined): string | undefined {
  if (command.length === 0) return undefined;
  if (command.includes('/')) return isExecutableFile(command) ? command : undefined;
  for (const dir of (pathValue ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, command);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
