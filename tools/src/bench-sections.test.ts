import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// bench.ts loads each section from the built module beside it and skips one that was not built:
// a section missing from the build entries would be skipped without a word.

const here = import.meta.dirname;
const read = (path: string) => readFileSync(join(here, path), 'utf8');

describe('bench sections', () => {
  it('every section bench.ts names is a build entry of tools', () => {
    const modules = [...read('bench.ts').matchAll(/module: '\.\/(bench\/[\w-]+)\.js'/g)].map((m) => `src/${m[1]}.ts`);
    const entries = [...read('../tsup.config.ts').matchAll(/'(src\/[\w/-]+\.ts)'/g)].map((m) => m[1]);
    expect(modules.length).toBeGreaterThan(10);
    expect(modules.filter((m) => !entries.includes(m))).toEqual([]);
  });
});
