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

  it('the state hooks are one self-contained CommonJS file that loads only node builtins', () => {
    const text = readFileSync(join(DIST, 'hook-cli.cjs'), 'utf8');
    // net only where the pipe handle cannot be used (ipc-protocol's one-shot-exchange.ts).
    expect(new Set([...text.matchAll(/\brequire\(["']([^"']+)["']\)/g)].map((m) => m[1]))).toEqual(new Set(['fs', 'net', 'util']));
    // No other file is loaded at all, except the recorder bundle on demand.
    expect([...text.matchAll(/\bimport\((.*?)\);/g)].map((m) => m[1])).toEqual(['activityBundle()']);
    expect(text).not.toMatch(/^import /m);
    expect(text).not.toMatch(/zod|opCatalog|commander|fs-ext/);
  });

  it('the bin shim is CommonJS and requires the hook bundle for the hook commands only', () => {
    const bin = join(DIST, '..', 'bin');
    expect(JSON.parse(readFileSync(join(bin, 'package.json'), 'utf8')).type).toBe('commonjs');
    expect(readFileSync(join(bin, 'cccc.js'), 'utf8')).toContain("require('../dist/hook-cli.cjs')");
  });

  it('the activity hook bundle loads neither commander, the IPC op catalog nor a workspace package', () => {
    const graph = [...staticGraph(join(DIST, 'hook-activity.js'))];
    expect(graph.filter((m) => m === 'commander' || m.startsWith('@cccc/'))).toEqual([]);
    expect(readFileSync(join(DIST, 'hook-activity.js'), 'utf8')).not.toMatch(/opCatalog/);
  });
});
