import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as call from './call.js';
import * as node from './node.js';
import * as root from './index.js';

const SRC = dirname(fileURLToPath(import.meta.url));

/** Every module `file` loads at run time: its non-type imports and re-exports, followed. */
function runtimeGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^'";]*?from\s+)?'([^']+)';$/gms)) {
    const spec = m[1]!;
    if (spec.startsWith('.')) runtimeGraph(join(dirname(file), spec.replace(/\.js$/, '.ts')), seen);
    else seen.add(spec);
  }
  return seen;
}

describe('@cccc/ipc-protocol/call', () => {
  it('loads neither zod nor the op catalog nor any schema module', () => {
    const graph = [...runtimeGraph(join(SRC, 'call.ts'))];
    expect(graph.length).toBeGreaterThan(8); // the walk follows the entry's modules
    expect(graph.filter((m) => !m.startsWith('/') && !m.startsWith('node:'))).toEqual([]);
    expect(graph.map((m) => m.slice(SRC.length + 1)).filter((m) => /envelope\.ts|catalog|events\.ts|registry|schemas|ops\//.test(m))).toEqual([]);
  });

  it('loads no node:net until a call needs it (a unix socket call never does where the pipe handle is used)', () => {
    expect([...runtimeGraph(join(SRC, 'call.ts'))].filter((m) => /^(node:)?(net|stream|tty|http)$/.test(m))).toEqual([]);
  });

  it('hands out the very classes the other entries export', () => {
    expect(call.IpcError).toBe(root.IpcError);
    expect(call.DaemonCallError).toBe(node.DaemonCallError);
    expect(call.DaemonTransportError).toBe(node.DaemonTransportError);
    expect(call.DELIVERY_CONFIRMATION_KIND).toBe(root.DELIVERY_CONFIRMATION_KIND);
  });
});
