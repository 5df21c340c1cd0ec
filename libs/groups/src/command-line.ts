import { groupError } from './errors.js';

/**
 * Split a shell-style command string into argv the way POSIX `sh` word splitting does (no
 * expansion): whitespace separates words, single quotes are literal, double quotes allow
 * `\"`, `\\`, `\$`, `` \` `` escapes, a backslash outside quotes escapes the next character,
 * and `""` yields an empty argument. An unterminated quote is `invalid_command`.
 */
export function splitCommandLine(line: string): string[] {
  const args: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else current += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1]!)) {
        i += 1;
        if (line[i] !== '\n') current += line[i];
      } else current += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\') {
      i += 1;
      if (i < line.length && line[i] !== '\n') current += line[i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) args.push(current);
      current = '';
      inWord = false;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (quote) throw groupError('invalid_command', `unterminated ${quote} quote in command`, {});
  if (inWord) args.push(current);
  return args;
}

/** A command as argv: arrays are kept exactly (boundaries, spaces, empty args); strings are split shell-style. */
export function normalizeCommand(command: unknown): string[] {
  if (command === undefined || command === null) return [];
  if (typeof command === 'string') return splitCommandLine(command);
  if (Array.isArray(command) && command.every((a) => typeof a === 'string')) return [...command];
  throw groupError('invalid_command', 'command must be a string or an array of strings', {});
}
