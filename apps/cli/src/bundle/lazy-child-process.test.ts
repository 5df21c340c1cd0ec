import * as childProcess from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);

describe('the lazy child_process given to the inlined commander', () => {
  it('covers every child_process member commander uses, and hands out the real ones', () => {
    const source = readFileSync(join(dirname(require.resolve('commander')), 'lib', 'command.js'), 'utf8');
    expect(source).toMatch(/^const childProcess = require\('node:child_process'\);$/m);
    const used = [...new Set([...source.matchAll(/\bchildProcess\.(\w+)/g)].map((m) => m[1]))];
    const lazy = require('./lazy-child-process.cjs') as Record<string, unknown>;
    expect(used.length).toBeGreaterThan(0);
    for (const member of used) expect(lazy[member], member).toBe((childProcess as Record<string, unknown>)[member]);
  });
});
