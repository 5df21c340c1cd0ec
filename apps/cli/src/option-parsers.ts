import { InvalidArgumentError } from 'commander';
import { cliError, CliErrorCodes } from './cli-error.js';

/** Repeatable option: `--arg a --arg b` → ['a', 'b']. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `--to a,b --to c` → ['a', 'b', 'c']: recipients may be repeated or comma-separated. */
export function collectList(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ];
}

export function parseBoolean(value: string): boolean {
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new InvalidArgumentError('expected true/false (or 1/0, yes/no, on/off)');
}

export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

/**
 * `KEY=VALUE` entries into a map. Validated here rather than by a commander arg parser because
 * commander's error message quotes the raw argument, and a `--set` argument may be a secret:
 * errors name the entry's position and never its text.
 */
export function parseKeyValues(entries: readonly string[], flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  entries.forEach((entry, index) => {
    const eq = entry.indexOf('=');
    if (eq <= 0) throw cliError(CliErrorCodes.invalidEnvEntry, `${flag} entry #${index + 1} is not KEY=VALUE`);
    out[entry.slice(0, eq)] = entry.slice(eq + 1);
  });
  return out;
}
