import { realpathSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { groupError } from './errors.js';
import { findRepoRoot, normalizeGitRemote, readOriginUrl } from './git-remote.js';
import { scopeKeyFor } from './ids.js';

export interface ScopeIdentity {
  scope_key: string;
  /** The repository root (or the directory itself outside a repository), symlinks resolved. */
  url: string;
  label: string;
  /** The normalised origin URL, or '' when there is none. */
  git_remote: string;
}

/** Resolve a user-supplied directory path: symlinks followed; missing → `path_not_found`. */
export function resolveDirectory(path: string): string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw groupError('path_not_found', `path not found: ${path}`, { path });
  }
  if (!statSync(real).isDirectory()) {
    throw groupError('invalid_path', `not a directory: ${path}`, { path });
  }
  return real;
}

/**
 * The scope a directory belongs to, derived as the reference does (`kernel/scope.py`): the
 * enclosing repository root (else the directory), keyed by its normalised origin URL when it
 * has one, else by the root path.
 */
export function detectScope(path: string): ScopeIdentity {
  const dir = resolveDirectory(path);
  const root = findRepoRoot(dir) ?? dir;
  const gitRemote = normalizeGitRemote(readOriginUrl(root));
  return {
    scope_key: scopeKeyFor(gitRemote || root),
    url: root,
    label: basename(root) || 'scope',
    git_remote: gitRemote,
  };
}
