import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface WorkspaceProject {
  readonly name: string;
  readonly dir: string;
  /** `@cccc/*` packages named in dependencies/devDependencies/peerDependencies. */
  readonly declared: ReadonlySet<string>;
  /** `@cccc/*` packages imported from the project's sources (tests included). */
  readonly imported: ReadonlySet<string>;
  /** Source files importing `node:` modules, by path relative to the project. */
  readonly nodeImports: ReadonlyMap<string, string[]>;
}

const IMPORT_RE = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx|mts)$/.test(entry) && !entry.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

export function importsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT_RE)) out.push((m[1] ?? m[2] ?? m[3])!);
  return out;
}

function packageOf(specifier: string): string | undefined {
  const m = /^(@cccc\/[^/]+)/.exec(specifier);
  return m?.[1];
}

/** The workspace as Nx sees it (package.json dependencies) plus what the sources really import. */
export function readWorkspace(root: string): WorkspaceProject[] {
  const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] };
  const dirs: string[] = [];
  for (const pattern of rootPkg.workspaces) {
    if (pattern.endsWith('/*')) {
      const base = join(root, pattern.slice(0, -2));
      for (const d of readdirSync(base)) if (existsSync(join(base, d, 'package.json'))) dirs.push(join(base, d));
    } else dirs.push(join(root, pattern));
  }
  return dirs.map((dir) => {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const declared = new Set<string>(
      ['dependencies', 'devDependencies', 'peerDependencies']
        .flatMap((k) => Object.keys(pkg[k] ?? {}))
        .filter((n) => n.startsWith('@cccc/')),
    );
    const imported = new Set<string>();
    const nodeImports = new Map<string, string[]>();
    for (const file of sourceFiles(join(dir, 'src'))) {
      const specs = importsOf(readFileSync(file, 'utf8'));
      for (const s of specs) {
        const p = packageOf(s);
        if (p && p !== pkg.name) imported.add(p);
      }
      const node = specs.filter((s) => s.startsWith('node:'));
      if (node.length > 0) nodeImports.set(relative(dir, file), node);
    }
    return { name: pkg.name as string, dir, declared, imported, nodeImports };
  });
}
