import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { groupError } from './errors.js';

export interface ScopedFile {
  /** Canonical absolute path (symlinks resolved), inside the scope root. */
  path: string;
  /** Path relative to the canonical scope root, `/`-separated. */
  rel_path: string;
  size: number;
}

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function realpathOrThrow(path: string, shown: string): string {
  try {
    return realpathSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw groupError('path_not_found', `path not found: ${shown}`, { path: shown });
    if (code === 'ELOOP') throw groupError('invalid_path', `symlink loop: ${shown}`, { path: shown });
    throw groupError('invalid_path', `cannot resolve ${shown}: ${code ?? 'error'}`, { path: shown });
  }
}

/**
 * Resolve a `send_files` path against the active scope root: absolute or relative to the root,
 * `..` may not climb out, symlinks are followed and the target must still be inside the root
 * (`outside_scope`), and it must be a regular file (`invalid_path` for directories, FIFOs,
 * sockets, devices). Missing → `path_not_found`.
 */
export function resolveScopedFile(scopeRoot: string, inputPath: string): ScopedFile {
  if (typeof inputPath !== 'string' || inputPath === '' || inputPath.includes('\0')) {
    throw groupError('invalid_path', 'path must be a non-empty string', { path: String(inputPath) });
  }
  const root = realpathOrThrow(scopeRoot, scopeRoot);
  if (!isAbsolute(inputPath) && !isInside(resolve(scopeRoot), resolve(scopeRoot, inputPath))) {
    throw groupError('outside_scope', `${inputPath} escapes the active scope`, { path: inputPath });
  }
  const candidate = isAbsolute(inputPath) ? inputPath : resolve(root, inputPath);
  const real = realpathOrThrow(candidate, inputPath);
  if (!isInside(root, real)) throw groupError('outside_scope', `${inputPath} resolves outside the active scope`, { path: inputPath });
  const fd = openNoBlock(real, inputPath);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw groupError('invalid_path', `${inputPath} is not a regular file`, { path: inputPath });
    return { path: real, rel_path: relative(root, real).split(sep).join('/'), size: stat.size };
  } finally {
    closeSync(fd);
  }
}

function openNoBlock(real: string, shown: string): number {
  try {
    // O_NONBLOCK: opening a FIFO must not hang; O_NOFOLLOW: the canonical path has no final link.
    return openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (err) {
    throw groupError('invalid_path', `cannot open ${shown}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`, { path: shown });
  }
}

/** Resolve and read every path before anything is stored (all-or-nothing for send_files). */
export function readScopedFiles(scopeRoot: string, inputPaths: readonly string[]): Array<ScopedFile & { bytes: Buffer }> {
  const resolved = inputPaths.map((p) => resolveScopedFile(scopeRoot, p));
  return resolved.map((file) => {
    const bytes = readFileSync(file.path);
    return { ...file, bytes };
  });
}
