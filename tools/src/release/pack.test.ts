import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  REPO_ROOT,
  STILL_EMPTY,
  exportTargets,
  importNameOf,
  importedPackages,
  packDryRun,
  publishablePackages,
  rangeHolds,
  readPackageJson,
  workspacePackages,
  type PackResult,
} from './workspace-packages.js';

// What each publishable package would put in its tarball (`npm pack --dry-run --json` over the
// built workspace, as `npm test` leaves it) and the package.json fields a registry user relies on.
// The release test (release.e2e.test.ts) then publishes and installs these same packages.

const root = readPackageJson(REPO_ROOT);
const published = publishablePackages();
const versions = new Map(workspacePackages().map((p) => [p.name, p.json.version]));
const packs = new Map<string, PackResult>();

beforeAll(async () => {
  for (const pack of await packDryRun(published.map((p) => p.name))) packs.set(pack.name, pack);
}, 120_000);

const packOf = (name: string): PackResult => packs.get(name) ?? expect.unreachable(`npm pack listed no ${name}`);
const filesOf = (name: string): string[] => packOf(name).files.map((f) => f.path);

describe('which packages are published', () => {
  it('every library with content, the CLI and what the CLI runs (daemon, web); the empty ones, tools and the torture suite stay private', () => {
    expect(published.map((p) => p.name)).toEqual([
      '@cccc/automation',
      '@cccc/capabilities',
      '@cccc/cli',
      '@cccc/context',
      '@cccc/daemon',
      '@cccc/durable-fs',
      '@cccc/group-space',
      '@cccc/groups',
      '@cccc/hook-fence',
      '@cccc/im',
      '@cccc/ipc-protocol',
      '@cccc/ledger',
      '@cccc/mcp',
      '@cccc/memory',
      '@cccc/pty-runtime',
      '@cccc/voice',
      '@cccc/web',
    ]);
    const privateOnes = workspacePackages().filter((p) => p.json.private).map((p) => p.name);
    expect(privateOnes.sort()).toEqual([...STILL_EMPTY, '@cccc/tools', '@cccc/torture'].sort());
  });

  it('a package of ours depends on another of ours by a caret or exact range that its workspace version satisfies', () => {
    for (const pkg of workspacePackages()) {
      for (const field of ['dependencies', 'devDependencies', 'peerDependencies'] as const) {
        for (const [dep, range] of Object.entries(pkg.json[field] ?? {})) {
          if (!dep.startsWith('@cccc/')) continue;
          // A range the workspace version misses would make npm install that package from a registry.
          expect(rangeHolds(range, versions.get(dep)!), `${pkg.name} ${field} ${dep}@${range} (workspace ${versions.get(dep)})`).toBe(true);
          if (!pkg.json.private) expect(published.map((p) => p.name), `${pkg.name} → ${dep}: a published package needs published dependencies`).toContain(dep);
        }
      }
    }
  });
});

describe.each(published)('$name', (pkg) => {
  const { json } = pkg;
  const readme = readFileSync(join(pkg.dir, 'README.md'), 'utf8');

  it('has the metadata a registry user relies on', () => {
    expect(json.private).toBeUndefined();
    expect(json.version).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
    expect(json.type).toBe('module');
    expect(json.description).toBeTruthy();
    expect(json.license).toBe(root.license);
    expect(json.repository).toEqual({ ...root.repository, directory: pkg.relDir });
    expect(json.engines).toEqual(root.engines);
    expect(json.sideEffects === false || Array.isArray(json.sideEffects), 'sideEffects: false or a list').toBe(true);
    expect(json.publishConfig).toEqual({ access: 'public' });
    expect(json.files).toEqual(expect.arrayContaining(['dist']));
  });

  it('exports only deliberate entry points, types first in each, each one documented in the README', () => {
    const subpaths = Object.keys(json.exports ?? {});
    expect(subpaths).toContain('.');
    for (const subpath of subpaths) {
      expect(subpath, 'no wildcard subpaths').not.toContain('*');
      expect(['.', './node', './call', './browser', './testing', './recorder', './launch', './bridge-main', './bin/cccc.js', './home', './defaults'], `${pkg.name} exports ${subpath}`).toContain(subpath);
      const value = json.exports![subpath]!;
      if (typeof value === 'object') expect(Object.keys(value)[0], `${subpath}: "types" comes first`).toBe('types');
      if (subpath !== '.') expect(readme, `README names ${importNameOf(pkg.name, subpath)}`).toContain(importNameOf(pkg.name, subpath));
    }
  });

  it('has a README with an install line and a TypeScript or shell example', () => {
    expect(readme).toMatch(new RegExp(`\\nnpm install (-g )?${pkg.name.replace('/', '\\/')}\\b`));
    expect(readme).toContain('\n## Install\n');
    expect(readme).toContain('\n## Entry points\n');
  });

  it('packs dist (with its declarations) and the README only: no sources, tests, fixtures or configs', () => {
    const files = filesOf(pkg.name);
    expect(files).toContain('package.json');
    expect(files).toContain('README.md');
    for (const file of files) {
      expect(file, 'outside dist/, bin/').toMatch(/^(dist\/|bin\/|package\.json$|README\.md$|CHANGELOG\.md$)/);
      expect(file).not.toMatch(/(^|\/)src\//);
      expect(file).not.toMatch(/\.(test|spec|e2e)\.[cm]?[jt]sx?$/);
      expect(file).not.toMatch(/(^|\/)(test-fixtures|fixtures|__tests__|test-artifacts)\//);
      expect(file).not.toMatch(/(tsconfig.*\.json|tsup.*\.ts|vitest\.config\.ts|\.tsbuildinfo)$/);
    }
    for (const { target } of exportTargets(json)) expect(files, `exports target ${target}`).toContain(target.replace(/^\.\//, ''));
    for (const bin of Object.values(json.bin ?? {})) expect(files, `bin ${bin}`).toContain(bin.replace(/^\.\//, ''));
    // Declarations are part of the publish build (a CCCC_BUILD_DTS=0 build has none).
    expect(exportTargets(json).filter((t) => t.conditions.includes('types')).length, 'declarations for the entry points').toBeGreaterThan(0);
  });

  it('ships source maps only with their sources inside (sourcesContent)', () => {
    for (const file of filesOf(pkg.name).filter((f) => f.endsWith('.map'))) {
      const map = JSON.parse(readFileSync(join(pkg.dir, file), 'utf8')) as { sources: string[]; sourcesContent?: Array<string | null> };
      expect(map.sourcesContent?.length, `${file}: sourcesContent`).toBe(map.sources.length);
      expect(map.sourcesContent!.every((s) => typeof s === 'string'), `${file}: every source inlined`).toBe(true);
    }
  });

  it('declares every package its built code and declarations import', () => {
    const declared = new Set([pkg.name, ...Object.keys(json.dependencies ?? {}), ...Object.keys(json.peerDependencies ?? {})]);
    const missing = new Map<string, string[]>();
    for (const file of filesOf(pkg.name).filter((f) => /\.(c?js|mjs|d\.ts)$/.test(f) && !f.startsWith('dist/app/'))) {
      for (const name of importedPackages(readFileSync(join(pkg.dir, file), 'utf8'))) {
        if (!declared.has(name)) missing.set(name, [...(missing.get(name) ?? []), file]);
      }
    }
    expect(Object.fromEntries(missing)).toEqual({});
  });
});

describe('@cccc/cli', () => {
  it('packs what its bin runs: the full CLI, its V8 code cache, the ES module loader file and the fast paths', () => {
    const files = filesOf('@cccc/cli');
    for (const file of ['bin/cccc.js', 'bin/code-cache.js', 'dist/cli.cjs', 'dist/cli.cjs.v8cache', 'dist/packages.cjs', 'dist/cli-fast.cjs', 'dist/hook-cli.cjs']) {
      expect(files, file).toContain(file);
    }
  });
});

describe('@cccc/ipc-protocol stays browser-safe outside ./node', () => {
  it('the JavaScript reachable from its root entry imports no node: module and no Node builtin', () => {
    const dist = join(published.find((p) => p.name === '@cccc/ipc-protocol')!.dir, 'dist');
    const seen = new Set<string>();
    const nodeImports: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const m of readFileSync(join(dist, file), 'utf8').matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(?\s*["']([^"']+)["']/g)) {
        const spec = (m[1] ?? m[2])!;
        if (spec.startsWith('./')) visit(spec.slice(2));
        else if (spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]!)) nodeImports.push(`${file}: ${spec}`);
      }
    };
    visit('index.js');
    expect(seen.size, 'index.js and its chunks').toBeGreaterThan(1);
    expect(nodeImports).toEqual([]);
  });

  it('so do the declarations of its root entry: no node: import, no NodeJS or Buffer type', () => {
    const dist = join(published.find((p) => p.name === '@cccc/ipc-protocol')!.dir, 'dist');
    const seen = new Set<string>();
    const nodeTypes: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(join(dist, file), 'utf8');
      for (const m of text.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(?\s*["']([^"']+)["']/g)) {
        const spec = (m[1] ?? m[2])!;
        if (spec.startsWith('./')) visit(spec.slice(2).replace(/\.js$/, '.d.ts'));
        else if (spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]!)) nodeTypes.push(`${file}: ${spec}`);
      }
      for (const m of text.matchAll(/\b(NodeJS\.\w+|Buffer)\b/g)) nodeTypes.push(`${file}: ${m[1]}`);
    };
    visit('index.d.ts');
    expect(seen.size, 'index.d.ts and its chunks').toBeGreaterThan(1);
    expect(nodeTypes).toEqual([]);
  });
});

describe('rangeHolds', () => {
  it('reads exact and caret ranges as npm does', () => {
    expect(rangeHolds('0.1.0', '0.1.0')).toBe(true);
    expect(rangeHolds('0.1.0', '0.1.1')).toBe(false);
    expect(rangeHolds('^0.1.0', '0.1.7')).toBe(true);
    expect(rangeHolds('^0.1.2', '0.1.1')).toBe(false);
    expect(rangeHolds('^0.1.0', '0.2.0')).toBe(false);
    expect(rangeHolds('^0.0.3', '0.0.4')).toBe(false);
    expect(rangeHolds('^1.2.3', '1.9.0')).toBe(true);
    expect(rangeHolds('^1.2.3', '1.2.2')).toBe(false);
    expect(rangeHolds('^1.2.3', '2.0.0')).toBe(false);
    expect(rangeHolds('*', '0.1.0')).toBe(false);
    expect(rangeHolds('~0.1.0', '0.1.0')).toBe(false);
  });
});
