import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fileGraph, importCircles, readWorkspace } from './workspace-graph.js';

/**
 * ARCHITECTURE.md's dependency direction, as layers: a project may depend only on projects in
 * strictly lower layers (or on the exceptions listed). Checked over both the declared graph
 * (what Nx builds from) and the imports the sources actually contain.
 */
const LAYER: Record<string, number> = {
  '@cccc/ipc-protocol': 0,
  '@cccc/durable-fs': 0,
  '@cccc/ledger': 1,
  '@cccc/groups': 1,
  '@cccc/context': 1,
  '@cccc/memory': 1,
  '@cccc/hook-fence': 1,
  '@cccc/capabilities': 1,
  '@cccc/voice': 1,
  '@cccc/group-space': 1,
  '@cccc/im': 1,
  '@cccc/mcp': 1,
  '@cccc/automation': 1,
  '@cccc/pty-runtime': 2,
  '@cccc/daemon': 3,
  '@cccc/web': 3,
  '@cccc/cli': 4,
  '@cccc/tools': 5,
  '@cccc/torture': 5,
};
/** mcp talks to the daemon only through the ipc-protocol client. */
const ONLY: Record<string, string[]> = { '@cccc/mcp': ['@cccc/ipc-protocol'] };

const root = fileURLToPath(new URL('../..', import.meta.url));
const projects = readWorkspace(root);

describe('dependency direction (ARCHITECTURE.md)', () => {
  it('knows every workspace project', () => {
    expect(projects.map((p) => p.name).filter((n) => !(n in LAYER))).toEqual([]);
  });

  for (const project of projects) {
    it(`${project.name} depends only downward`, () => {
      const edges = new Set([...project.declared, ...project.imported]);
      const wrong = [...edges].filter(
        (dep) => !(dep in LAYER) || LAYER[dep]! >= LAYER[project.name]! || (ONLY[project.name] && !ONLY[project.name]!.includes(dep)),
      );
      expect(wrong, `${project.name} -> ${wrong.join(', ')}`).toEqual([]);
      const undeclared = [...project.imported].filter((dep) => !project.declared.has(dep));
      expect(undeclared, `${project.name} imports undeclared ${undeclared.join(', ')}`).toEqual([]);
    });
  }

  it('keeps ipc-protocol browser-safe outside its ./node and ./testing subpaths', () => {
    const ipc = projects.find((p) => p.name === '@cccc/ipc-protocol')!;
    const offenders = [...ipc.nodeImports.keys()].filter(
      (f) => !/^src\/(node|testing)(\/|\.ts$)/.test(f) && !f.endsWith('.test.ts'),
    );
    expect(offenders).toEqual([]);
  });
});

describe('files inside each project (ARCHITECTURE.md, rules of the kernel)', () => {
  for (const project of projects) {
    it(`${project.name} has no import circles`, () => {
      const circles = importCircles(fileGraph(project.dir)).map((c) => c.map((f) => relative(project.dir, f)));
      expect(circles).toEqual([]);
    });
  }

  const daemon = projects.find((p) => p.name === '@cccc/daemon')!;
  const daemonFiles = [...fileGraph(daemon.dir)].map(([file, imports]) => ({ file: relative(daemon.dir, file), imports: imports.map((f) => relative(daemon.dir, f)) }));
  const production = daemonFiles.filter((f) => f.file.startsWith('src/') && !f.file.endsWith('.test.ts'));

  it('the daemon has one composition root: no production module but the entry points imports daemon.ts', () => {
    const entryPoints = new Set(['src/daemon.ts', 'src/index.ts', 'src/main.ts']);
    const offenders = production.filter((f) => !entryPoints.has(f.file) && f.imports.includes('src/daemon.ts')).map((f) => f.file);
    expect(offenders).toEqual([]);
    // No service locator comes back: nothing in production declares one object of every service.
    const locators = production.filter((f) => /\bclass Kernel\b|\bDaemonServices\b/.test(readFileSync(join(daemon.dir, f.file), 'utf8')) && f.file !== 'src/daemon.ts');
    expect(locators.map((f) => f.file)).toEqual([]);
  });

  it('daemon test support lives outside production folders and production never imports it', () => {
    expect(production.filter((f) => f.imports.some((i) => i.startsWith('test-support/'))).map((f) => f.file)).toEqual([]);
    expect(production.filter((f) => /(test-support|testing|fixture|harness)/.test(f.file)).map((f) => f.file)).toEqual([]);
  });
});

describe('the checker itself', () => {
  it('would catch an import circle', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(importCircles(graph)).toEqual([['a', 'b', 'c'], ['e']]);
  });

  it('would catch an upward edge', async () => {
    const { importsOf } = await import('./workspace-graph.js');
    expect(importsOf("import { x } from '@cccc/daemon';\nexport * from './a.js';\nawait import('@cccc/cli')")).toEqual([
      '@cccc/daemon',
      './a.js',
      '@cccc/cli',
    ]);
  });
});
