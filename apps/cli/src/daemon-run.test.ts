import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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

describe('`cccc daemon run` entry', () => {
  it('loads the daemon, not commander or the command modules (the Web server among them)', () => {
    const graph = [...staticGraph(join(DIST, 'daemon-run.js'))].filter((m) => !m.startsWith('/'));
    expect(graph).toContain('@cccc/daemon');
    expect(graph.filter((m) => m === 'commander' || m === '@cccc/web' || m === '@cccc/mcp' || m === 'ws')).toEqual([]);
  });

  it('is what the bin shim runs for exactly `daemon run`', () => {
    const shim = readFileSync(fileURLToPath(new URL('../bin/cccc.js', import.meta.url)), 'utf8');
    expect(shim).toContain("process.argv.length === 4 && process.argv[2] === 'daemon' && process.argv[3] === 'run'");
    expect(shim).toContain("import('../dist/daemon-run.js')");
  });
});
