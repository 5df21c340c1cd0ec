/**
 * Whether one tar entry may be extracted into a model's staging directory (pure). Only regular
 * files and directories under a relative path without `..` are allowed: symlinks and hard links
 * could point the recognizer (or a later entry) outside the model directory, and absolute or
 * parent paths would write outside it (zip-slip). An entry may not replace another artifact or the
 * installed record either. Returns the reason it is refused, or undefined when it is safe.
 */
export function unsafeArchiveEntry(path: string, type: string, reserved: ReadonlySet<string>): string | undefined {
  if (type !== 'File' && type !== 'OldFile' && type !== 'Directory') return `entry type ${type} is not a regular file or directory`;
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.includes('\\')) return 'absolute or non-POSIX path';
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return 'path leaves the model directory';
  if (parts.some((p) => p.includes('\0'))) return 'NUL in path';
  if (parts.length > 0 && reserved.has(parts[0]!)) return `would replace ${parts[0]}`;
  return undefined;
}

/** A recognizer file inside an extracted archive: relative, POSIX, no `..`, no empty or dot parts. */
export function isSafeRelativePath(path: string): boolean {
  if (path.length === 0 || path.length > 512 || path.startsWith('/') || path.includes('\\')) return false;
  return path.split('/').every((p) => p !== '' && p !== '.' && p !== '..' && /^[A-Za-z0-9._+-]+$/.test(p));
}
