import { lstat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { voiceError, VoiceErrorCodes } from './errors.js';

const MAX_COMPONENT = 160;
// Printable, no separators, no NUL: what may name a directory under voice-secretary/<group_id>/.
const COMPONENT = /^[A-Za-z0-9][A-Za-z0-9._@+-]*$/;

/**
 * One safe path component for a session / document id, or `invalid_path` (nothing is touched).
 * `.` / `..`, separators, absolute paths and control characters are refused, never rewritten:
 * two different ids must never land in the same directory.
 */
export function safePathComponent(value: string, field = 'session_id'): string {
  const id = value.trim();
  if (id === '' || id.length > MAX_COMPONENT || id === '.' || id === '..' || !COMPONENT.test(id) || id.includes('..')) {
    throw voiceError(VoiceErrorCodes.invalidPath, `${field} must be one safe path component`, { field, value });
  }
  return id;
}

/**
 * A repository-relative Markdown path (`docs/voice-secretary/notes.md`), normalized to forward
 * slashes, or `invalid_path`: no absolute path, no `.` / `..` / empty segment, must end in `.md`.
 */
export function safeDocumentPath(value: string, field = 'document_path'): string {
  const path = value.trim().replace(/\\/g, '/');
  const parts = path.split('/');
  const bad =
    path === '' ||
    path.length > 1024 ||
    path.startsWith('/') ||
    /^[A-Za-z]:/.test(path) ||
    /[\u0000-\u001f]/.test(path) ||
    parts.some((p) => p === '' || p === '.' || p === '..') ||
    !path.toLowerCase().endsWith('.md');
  if (bad) throw voiceError(VoiceErrorCodes.invalidPath, `${field} must be a repository-relative .md path`, { field, value });
  return path;
}

/**
 * Resolve `relPath` under `root` and refuse it when any existing segment below `root` is a
 * symbolic link (or the result escapes `root`). Missing segments are fine: they will be created
 * as plain directories / files. Call before any file under the path is read or written.
 */
export async function resolveWithoutSymlinks(root: string, relPath: string, field = 'document_path'): Promise<string> {
  const target = join(root, relPath);
  const rel = relative(root, target);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw voiceError(VoiceErrorCodes.invalidPath, `${field} escapes its root`, { field, value: relPath });
  }
  let current = root;
  for (const part of rel.split(sep)) {
    current = join(current, part);
    const st = await lstat(current).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return undefined;
      throw voiceError(VoiceErrorCodes.ioError, `cannot inspect ${field}: ${err.message}`, { field });
    });
    if (!st) break;
    if (st.isSymbolicLink()) {
      throw voiceError(VoiceErrorCodes.invalidPath, `${field} must not traverse a symbolic link`, { field, value: relPath });
    }
  }
  return target;
}
