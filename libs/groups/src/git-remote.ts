import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

const SCP_LIKE = /^(?<user>[^@/]+)@(?<host>[^:/]+):(?<path>.+)$/;

function stripDotGit(path: string): string {
  return path.endsWith('.git') ? path.slice(0, -'.git'.length) : path;
}

/**
 * Normalise a git remote URL so ssh and https spellings of one repository hash to one scope,
 * matching the reference (`kernel/git.py::normalize_git_remote`):
 * - `user@host:path(.git)` → `https://host/path`
 * - `ssh://[git@]host/path(.git)` → `https://host/path` (the first `git@` is dropped, a port is kept)
 * - `http(s)://…(.git)` → the same URL without `.git`
 * - anything else (local paths, `file://`) is kept as written, trimmed.
 */
export function normalizeGitRemote(url: string): string {
  const trimmed = url.trim();
  if (trimmed === '') return '';
  const scp = SCP_LIKE.exec(trimmed);
  if (scp?.groups && !trimmed.includes('://')) {
    return `https://${scp.groups.host}/${stripDotGit(scp.groups.path!)}`;
  }
  if (trimmed.startsWith('ssh://')) {
    const rest = trimmed.slice('ssh://'.length).replace('git@', '');
    const slash = rest.indexOf('/');
    if (slash >= 0) return `https://${rest.slice(0, slash)}/${stripDotGit(rest.slice(slash + 1))}`;
    return trimmed;
  }
  if (trimmed.startsWith('http://') || trimmed.startsWith('https://')) return stripDotGit(trimmed);
  return trimmed;
}

/** Walk up from `start` (a real directory path) to the nearest directory holding `.git`. */
export function findRepoRoot(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The git dir holding `config`: `.git` itself, or for worktrees/submodules the `gitdir:` target's common dir. */
function gitConfigDir(repoRoot: string): string | undefined {
  const dotGit = join(repoRoot, '.git');
  const stat = statSync(dotGit, { throwIfNoEntry: false });
  if (!stat) return undefined;
  if (stat.isDirectory()) return dotGit;
  const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
  if (!pointer) return undefined;
  const gitDir = resolve(repoRoot, pointer[1]!.trim());
  const commonFile = join(gitDir, 'commondir');
  if (existsSync(commonFile)) {
    const common = readFileSync(commonFile, 'utf8').trim();
    return isAbsolute(common) ? common : resolve(gitDir, common);
  }
  return gitDir;
}

/**
 * `remote.origin.url` read straight from the repository's `config` file (no git process, no
 * network). Returns '' when there is no origin.
 */
export function readOriginUrl(repoRoot: string): string {
  const dir = gitConfigDir(repoRoot);
  if (!dir) return '';
  let text: string;
  try {
    text = readFileSync(join(dir, 'config'), 'utf8');
  } catch {
    return '';
  }
  let inOrigin = false;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line.startsWith('[')) {
      inOrigin = /^\[\s*remote\s+"origin"\s*\]$/.test(line);
      continue;
    }
    if (!inOrigin) continue;
    const kv = /^url\s*=\s*(.*)$/i.exec(line);
    if (kv) return unquoteGitValue(kv[1]!);
  }
  return '';
}

function unquoteGitValue(value: string): string {
  const v = value.trim();
  return v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v;
}
