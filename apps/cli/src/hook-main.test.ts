import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isFastHook } from './hook-main.js';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

/** Every module the built file loads before it runs (static imports, followed recursively). */
function staticGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^import\s+(?:[^'"]*?from\s+)?["']([^"']+)["'];?$/gm)) {
    const spec = m[1]!;
    if (spec.startsWith('.')) staticGraph(join(dirname(file), spec), seen);
    else seen.add(spec);
  }
  return seen;
}

describe('the cccc hook fast path', () => {
  it('recognizes only the hook commands', () => {
    expect(isFastHook(['node', 'cccc', 'hook', 'claude-activity'])).toBe(true);
    expect(isFastHook(['node', 'cccc', 'hook', 'codex-state'])).toBe(true);
    expect(isFastHook(['node', 'cccc', 'hook', 'nope'])).toBe(false);
    expect(isFastHook(['node', 'cccc', 'send', 'hi'])).toBe(false);
  });

  it('the activity hook loads neither commander nor the IPC op catalog', () => {
    const cli = readFileSync(join(DIST, 'hook-cli.js'), 'utf8');
    const chunks = [...staticGraph(join(DIST, 'hook-cli.js'))].filter((m) => m.startsWith('/'));
    const dynamic = chunks
      .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/import\(["'](\.\/activity-recorder[^"']+)["']\)/g)].map((m) => join(dirname(file), m[1]!)))
      .concat([...cli.matchAll(/import\(["'](\.\/activity-recorder[^"']+)["']\)/g)].map((m) => join(DIST, m[1]!)));
    expect(dynamic.length).toBeGreaterThan(0);
    const graph = [...staticGraph(dynamic[0]!)];
    expect(graph.filter((m) => m === 'commander' || m === '@cccc/ipc-protocol' || m === '@cccc/hook-fence')).toEqual([]);
  });

  it('loads neither commander nor any workspace package before the hook runs', () => {
    const graph = [...staticGraph(join(DIST, 'hook-cli.js'))];
    expect(graph.filter((m) => m === 'commander' || m.startsWith('@cccc/') || m === 'zod')).toEqual([]);
  });
});
