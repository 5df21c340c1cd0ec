import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

// The workspace as the release flow sees it: which packages are published, what `npm pack` puts
// in each, and which packages their built code imports. Shared by the pack check and the release
// test so both judge the same list.

const run = promisify(execFile);

export const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');

/** Libraries whose issue has not landed: they export nothing and stay private until it does. */
export const STILL_EMPTY: readonly string[] = [];

type ExportTarget = string | { [condition: string]: ExportTarget };

export interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  type?: string;
  description?: string;
  license?: string;
  repository?: { type: string; url: string; directory?: string };
  engines?: Record<string, string>;
  sideEffects?: boolean | string[];
  bin?: Record<string, string>;
  exports?: Record<string, ExportTarget>;
  files?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  publishConfig?: Record<string, string>;
  workspaces?: string[];
}

export interface WorkspacePackage {
  readonly name: string;
  /** Absolute. */
  readonly dir: string;
  /** Relative to the repository root, e.g. `libs/ledger`. */
  readonly relDir: string;
  readonly json: PackageJson;
}

export function readPackageJson(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
}

/** Every workspace package (root package.json `workspaces`), sorted by name. */
export function workspacePackages(root = REPO_ROOT): WorkspacePackage[] {
  const dirs: string[] = [];
  for (const pattern of readPackageJson(root).workspaces ?? []) {
    if (!pattern.endsWith('/*')) {
      dirs.push(join(root, pattern));
      continue;
    }
    const base = join(root, pattern.slice(0, -2));
    for (const d of readdirSync(base)) if (existsSync(join(base, d, 'package.json'))) dirs.push(join(base, d));
  }
  return dirs
    .map((dir) => {
      const json = readPackageJson(dir);
      return { name: json.name, dir, relDir: relative(root, dir), json };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

export const publishablePackages = (root = REPO_ROOT): WorkspacePackage[] => workspacePackages(root).filter((p) => !p.json.private);

/** Every file path an `exports` entry points at, with its subpath and condition chain. */
export function exportTargets(json: PackageJson): Array<{ subpath: string; conditions: string[]; target: string }> {
  const out: Array<{ subpath: string; conditions: string[]; target: string }> = [];
  const walk = (subpath: string, value: ExportTarget, conditions: string[]) => {
    if (typeof value === 'string') out.push({ subpath, conditions, target: value });
    else for (const [condition, inner] of Object.entries(value)) walk(subpath, inner, [...conditions, condition]);
  };
  for (const [subpath, value] of Object.entries(json.exports ?? {})) walk(subpath, value, []);
  return out;
}

/** The import name of an `exports` subpath: `.` → `@cccc/x`, `./testing` → `@cccc/x/testing`. */
export const importNameOf = (pkg: string, subpath: string): string => (subpath === '.' ? pkg : `${pkg}/${subpath.slice(2)}`);

export interface PackedFile {
  path: string;
  size: number;
}

export interface PackResult {
  name: string;
  version: string;
  /** Tarball bytes (gzipped). */
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: PackedFile[];
}

/** `npm pack --dry-run --json` for these workspace packages, in one npm run. */
export async function packDryRun(names: readonly string[], root = REPO_ROOT): Promise<PackResult[]> {
  const args = ['pack', '--dry-run', '--json', '--ignore-scripts', ...names.flatMap((n) => ['-w', n])];
  const { stdout } = await run('npm', args, { cwd: root, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 });
  return JSON.parse(stdout) as PackResult[];
}

const BUILTINS = new Set(builtinModules);

/** The package a bare specifier names (`zod/v4/core` → `zod`), or undefined for relative, `node:` and builtins. */
export function packageOfSpecifier(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return BUILTINS.has(name) ? undefined : name;
}

// Static imports and re-exports, dynamic imports and requires, as tsup and tsc emit them.
const SPECIFIER_RE = /\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|\bimport\s+["']([^"']+)["']|\brequire\(\s*["']([^"']+)["']\s*\)/g;

/** Bare package names imported by this built JavaScript or declaration text. */
export function importedPackages(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(SPECIFIER_RE)) {
    const name = packageOfSpecifier((m[1] ?? m[2] ?? m[3] ?? m[4])!);
    if (name) out.add(name);
  }
  return [...out];
}

/**
 * `range` is `X.Y.Z` or `^X.Y.Z` and `version` satisfies it (caret: the same leftmost non-zero
 * part, not lower). `changeset version` leaves a dependent's range alone while it still holds.
 */
export function rangeHolds(range: string, version: string): boolean {
  const m = /^(\^?)(\d+)\.(\d+)\.(\d+)$/.exec(range);
  const v = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (!m || !v) return false;
  const want = [Number(m[2]), Number(m[3]), Number(m[4])];
  const have = [Number(v[1]), Number(v[2]), Number(v[3])];
  if (!m[1]) return want.join('.') === have.join('.');
  const fixed = want[0] !== 0 ? 1 : want[1] !== 0 ? 2 : 3; // how many leading parts must match
  for (let i = 0; i < fixed; i++) if (have[i] !== want[i]) return false;
  for (let i = fixed; i < 3; i++) if (have[i] !== want[i]) return have[i]! > want[i]!;
  return true;
}
