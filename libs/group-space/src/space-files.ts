import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { spaceError } from './errors.js';

/** The local file policy of the work lane (reported by group_space_capabilities). */
export const LOCAL_FILE_POLICY = {
  allowed_extensions: ['.md', '.markdown', '.txt', '.rst', '.json', '.yaml', '.yml', '.csv', '.html'],
  max_file_size_bytes: 2 * 1024 * 1024,
  unsupported_error_code: 'space_source_unsupported',
  oversize_error_code: 'space_source_too_large',
} as const;

/** At most this many files are ingested from one space folder walk. */
export const MAX_FOLDER_FILES = 2000;

/**
 * Resolve `path` (relative to the space root, or absolute inside it) to a regular file that
 * stays inside the root and passes through no symbolic link. Errors touch nothing.
 */
export function resolveSpaceFile(root: string, path: string): { abs: string; rel: string } {
  if (typeof path !== 'string' || path === '' || path.includes('\0')) throw spaceError('invalid_request', 'payload.path must be a non-empty path', { field: 'payload.path' });
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    throw spaceError('space_provider_not_found', `the space folder does not exist: ${root}`, { space_root: root });
  }
  const abs = resolve(realRoot, isAbsolute(path) ? relative(root, path) : path);
  const rel = relative(realRoot, abs);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) throw spaceError('space_path_outside_root', 'the path leaves the space folder', { path });
  let cur = realRoot;
  for (const part of rel.split(sep)) {
    cur = join(cur, part);
    let st;
    try {
      st = lstatSync(cur);
    } catch {
      throw spaceError('space_provider_not_found', `no such file in the space folder: ${rel}`, { path: rel });
    }
    if (st.isSymbolicLink()) throw spaceError('space_path_outside_root', 'the path passes through a symbolic link', { path: rel });
  }
  return { abs, rel };
}

/** Read a space file under the local file policy (extension, size, regular file). */
export function readSpaceFile(abs: string, rel: string): string {
  if (!(LOCAL_FILE_POLICY.allowed_extensions as readonly string[]).includes(extname(abs).toLowerCase())) {
    throw spaceError('space_source_unsupported', `unsupported file type: ${rel}`, { path: rel, allowed_extensions: LOCAL_FILE_POLICY.allowed_extensions });
  }
  const st = lstatSync(abs);
  if (!st.isFile()) throw spaceError('space_source_unsupported', `not a regular file: ${rel}`, { path: rel });
  if (st.size > LOCAL_FILE_POLICY.max_file_size_bytes) {
    throw spaceError('space_source_too_large', `${rel} is larger than ${LOCAL_FILE_POLICY.max_file_size_bytes} bytes`, { path: rel, size_bytes: st.size });
  }
  return readFileSync(abs, 'utf8');
}

/** Every eligible file under the space root (no links followed, dot entries and `artifacts/` skipped), sorted. */
export function walkSpaceFolder(root: string): Array<{ abs: string; rel: string }> {
  const out: Array<{ abs: string; rel: string }> = [];
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (out.length >= MAX_FOLDER_FILES) return;
      if (e.name.startsWith('.')) continue;
      const abs = join(dir, e.name);
      const rel = relative(root, abs);
      if (e.isDirectory()) {
        if (rel !== 'artifacts') walk(abs);
      } else if (e.isFile() && (LOCAL_FILE_POLICY.allowed_extensions as readonly string[]).includes(extname(e.name).toLowerCase())) {
        if (lstatSync(abs).size <= LOCAL_FILE_POLICY.max_file_size_bytes) out.push({ abs, rel });
      }
    }
  };
  walk(root);
  return out;
}
