import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readWorkspace } from './workspace-graph.js';

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
  '@cccc/hook-fence': 1,
  '@cccc/capabilities': 1,
  '@cccc/voice': 1,
  '@cccc/group-space': 1,
  '@cccc/mcp': 1,
  '@cccc/pty-runtime': 2,
  '@cccc/daemon': 3,
  '@cccc/web': 3,
  '@cccc/cli': 4,
  '@cccc/tools': 5,
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

describe('the checker itself', () => {
  it('would catch an upward edge', async () => {
    const { importsOf } = await import('./workspace-graph.js');
    expect(importsOf("import { x } from '@cccc/daemon';\nexport * from './a.js';\nawait import('@cccc/cli')")).toEqual([
      '@cccc/daemon',
      './a.js',
      '@cccc/cli',
    ]);
  });
});
