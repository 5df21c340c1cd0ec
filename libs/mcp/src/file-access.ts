import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ToolFailure } from './daemon-port.js';

// Read-only file access for cccc_file: a path is resolved inside one root (the active scope or
// the group's blob store), symlinks followed, and refused when the real target leaves the root.

export const BLOB_PREFIX = 'state/blobs/';

export interface ResolvedFile {
  readonly root: 'scope' | 'blob';
  /** Canonical absolute path, inside its root. */
  readonly path: string;
  /** `/`-separated path from the root (blobs keep the `state/blobs/` prefix). */
  readonly rel_path: string;
  readonly size: number;
  readonly mtime: string;
}

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function realpath(path: string, shown: string): string {
  try {
    return realpathSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ToolFailure('path_not_found', `path not found: ${shown}`, { rel_path: shown });
    throw new ToolFailure('invalid_path', `cannot resolve ${shown}: ${code ?? 'error'}`, { rel_path: shown });
  }
}

export function groupBlobRoot(home: string, groupId: string): string {
  return join(home, 'groups', groupId, 'state', 'blobs');
}

/** Which root a rel_path names: `state/blobs/...` is a group blob, anything else is in the scope. */
export function isBlobPath(relPath: string): boolean {
  return relPath.replaceAll('\\', '/').startsWith(BLOB_PREFIX);
}

/**
 * Resolve `relPath` (relative only) under `rootDir`. `..` may not climb out lexically, and the
 * symlink-resolved target must still be inside the symlink-resolved root. Only regular files.
 */
export function resolveInside(rootDir: string, relPath: string, kind: 'scope' | 'blob'): ResolvedFile {
  if (relPath === '' || relPath.includes('\0')) throw new ToolFailure('invalid_path', 'rel_path must be a non-empty path', { rel_path: relPath });
  if (isAbsolute(relPath)) throw new ToolFailure('outside_scope', `${relPath}: rel_path must be relative to the scope root`, { rel_path: relPath });
  const inner = kind === 'blob' ? relPath.replaceAll('\\', '/').slice(BLOB_PREFIX.length) : relPath;
  if (!isInside(resolve(rootDir), resolve(rootDir, inner))) {
    throw new ToolFailure('outside_scope', `${relPath} escapes the ${kind === 'blob' ? 'blob store' : 'active scope'}`, { rel_path: relPath });
  }
  const root = realpath(rootDir, kind === 'blob' ? BLOB_PREFIX : '.');
  const real = realpath(resolve(root, inner), relPath);
  if (!isInside(root, real)) throw new ToolFailure('outside_scope', `${relPath} resolves outside the ${kind === 'blob' ? 'blob store' : 'active scope'}`, { rel_path: relPath });
  const fd = openFile(real, relPath);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new ToolFailure('invalid_path', `${relPath} is not a regular file`, { rel_path: relPath });
    const rel = relative(root, real).split(sep).join('/');
    return { root: kind, path: real, rel_path: kind === 'blob' ? BLOB_PREFIX + rel : rel, size: stat.size, mtime: stat.mtime.toISOString() };
  } finally {
    closeSync(fd);
  }
}

function openFile(real: string, shown: string): number {
  try {
    // O_NONBLOCK: a FIFO must not hang the server; O_NOFOLLOW: the canonical path has no final link.
    return openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (err) {
    throw new ToolFailure('invalid_path', `cannot open ${shown}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`, { rel_path: shown });
  }
}

export interface FileContent {
  readonly encoding: 'utf8' | 'base64';
  readonly content: string;
  readonly truncated: boolean;
}

/** Read at most maxBytes; text with a NUL byte or invalid UTF-8 is returned as base64. */
export function readFileHead(file: ResolvedFile, maxBytes: number): FileContent {
  const fd = openFile(file.path, file.rel_path);
  try {
    const want = Math.min(file.size, maxBytes);
    const buf = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const n = readSync(fd, buf, got, want - got, got);
      if (n === 0) break;
      got += n;
    }
    const bytes = buf.subarray(0, got);
    const truncated = file.size > got;
    const text = bytes.includes(0) ? null : decodeUtf8(bytes, truncated);
    return text === null ? { encoding: 'base64', content: bytes.toString('base64'), truncated } : { encoding: 'utf8', content: text, truncated };
  } finally {
    closeSync(fd);
  }
}

function decodeUtf8(bytes: Buffer, truncated: boolean): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: truncated });
  } catch {
    return null;
  }
}
