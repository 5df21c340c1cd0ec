import { readFileSync } from 'node:fs';
import { writeFileAtomicSync } from '@cccc/durable-fs';

/** Read a JSON file, or undefined when it does not exist. A malformed file throws. */
export function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return JSON.parse(text);
}

/** Atomic JSON write in the reference's layout (2-space indent, key order kept). */
export function writeJsonFile(path: string, value: unknown, mode = 0o644): void {
  writeFileAtomicSync(path, JSON.stringify(value, null, 2), mode);
}
