import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FAST_COMMANDS } from './fast/argv.js';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

describe('the cccc ping|send|reply fast path bundle', () => {
  it('is one self-contained CommonJS file that loads only node builtins', () => {
    const text = readFileSync(`${DIST}cli-fast.cjs`, 'utf8');
    // net only where the pipe handle cannot be used (ipc-protocol's one-shot-exchange.ts).
    expect(new Set([...text.matchAll(/\brequire\(["']([^"']+)["']\)/g)].map((m) => m[1]))).toEqual(new Set(['fs', 'net', 'os', 'path', 'util']));
    expect(text).not.toMatch(/\bimport\(/);
    expect(text).not.toMatch(/zod|opCatalog|commander|fs-ext/);
  });

  it('the bin shim requires it for ping, send and reply and falls back to the full CLI', () => {
    const shim = readFileSync(fileURLToPath(new URL('../bin/cccc.js', import.meta.url)), 'utf8');
    expect([...FAST_COMMANDS]).toEqual(['ping', 'send', 'reply']);
    expect(shim).toContain("new Set(['ping', 'send', 'reply'])");
    expect(shim).toContain("require('../dist/cli-fast.cjs').tryRunFast(process.argv)");
    expect(shim).toMatch(/if \(!handled\) fullCli\(\);/);
  });
});
