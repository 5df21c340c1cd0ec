import { lstatSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { MemoryErrorCodes, memoryError } from './errors.js';

/**
 * A memory file path, absolute or relative to the memory root, checked before any read or write:
 * it must stay inside the root after normalization, name a `.md` file, and no part of it from the
 * root down (the root included) may be a symbolic link, so a link cannot lead a read or a write
 * out of the group's memory. Returns the absolute path; throws `memory_path_outside_root` or
 * `memory_path_symlink`.
 */
export function resolveMemoryPath(root: string, input: string): string {
  const target = isAbsolute(input) ? resolve(input) : resolve(root, input);
  const rel = relative(root, target);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || !target.endsWith('.md') || input.includes('\0')) {
    throw memoryError(MemoryErrorCodes.pathOutsideRoot, 'memory path must name a .md file inside the memory root', { path: input });
  }
  refuseSymlinks(root, rel.split(sep));
  return target;
}

/** Throw `memory_path_symlink` if the root or any existing part of `parts` below it is a link. */
export function refuseSymlinks(root: string, parts: readonly string[]): void {
  let at = root;
  for (const part of ['', ...parts]) {
    at = part === '' ? at : join(at, part);
    let st;
    try {
      st = lstatSync(at);
    } catch {
      return; // nothing more exists below
    }
    if (st.isSymbolicLink()) throw memoryError(MemoryErrorCodes.pathSymlink, 'memory paths may not pass through a symbolic link', { path: at });
  }
}
