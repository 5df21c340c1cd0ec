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

/** Every source file of a project (src and test-support) and the project files it imports by relative path. */
export function fileGraph(projectDir: string): Map<string, string[]> {
  const files = [...sourceFiles(join(projectDir, 'src')), ...sourceFiles(join(projectDir, 'test-support'))];
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const base = join(file, '..', spec).replace(/\.js$/, '');
      const hit = [`${base}.ts`, `${base}.tsx`, `${base}.mts`, join(base, 'index.ts')].find((c) => known.has(c));
      if (hit) targets.push(hit);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The import circles of a file graph: each strongly connected set of two or more files, or a file importing itself. */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative so a deep chain of imports cannot overflow the stack.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const members: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          members.push(member);
        } while (member !== frame.node);
        if (members.length > 1 || edges.includes(frame.node)) circles.push(members.sort());
      }
    }
  }
  return circles;
}
