import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * HOUSE_STYLE habit 5, checked: every wire error code comes from one closed table per package
 * (`*ErrorCodes` in its `errors.ts` / `cli-error.ts`), and each package's README lists its table.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

/** Package folder → the file holding its code table. */
const TABLES: Record<string, string> = {
  'libs/ipc-protocol': 'src/errors.ts',
  'libs/ledger': 'src/errors.ts',
  'libs/groups': 'src/errors.ts',
  'libs/context': 'src/errors.ts',
  'libs/automation': 'src/errors.ts',
  'libs/capabilities': 'src/errors.ts',
  'libs/memory': 'src/errors.ts',
  'libs/voice': 'src/errors.ts',
  'libs/im': 'src/errors.ts',
  'apps/daemon': 'src/errors.ts',
  'apps/cli': 'src/cli-error.ts',
};

/** The string values of the `XxxErrorCodes = { ... } as const` object in a source file. */
function tableCodes(source: string): string[] {
  const body = /ErrorCodes = \{([\s\S]*?)\} as const/.exec(source)?.[1];
  if (!body) return [];
  return [...body.matchAll(/^\s*\w+: '([a-z_]+)',/gm)].map((m) => m[1]!);
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'testing') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name) && !/\.(test|e2e\.test)\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

describe('closed error codes', () => {
  for (const [pkg, file] of Object.entries(TABLES)) {
    const codes = tableCodes(readFileSync(join(root, pkg, file), 'utf8'));

    it(`${pkg} has a table of codes`, () => {
      expect(codes.length).toBeGreaterThan(0);
      expect(new Set(codes).size).toBe(codes.length);
    });

    it(`${pkg}'s README documents every code of its table`, () => {
      const readme = readFileSync(join(root, pkg, 'README.md'), 'utf8');
      expect(codes.filter((code) => !readme.includes(`\`${code}\``))).toEqual([]);
    });
  }

  it('no source throws an error code written inline: codes come from the tables', () => {
    const inline: string[] = [];
    for (const top of ['apps', 'libs']) {
      for (const pkg of readdirSync(join(root, top))) {
        const src = join(root, top, pkg, 'src');
        if (!statSync(join(root, top, pkg)).isDirectory()) continue;
        let files: string[];
        try {
          files = sourceFiles(src);
        } catch {
          continue;
        }
        for (const path of files) {
          readFileSync(path, 'utf8')
            .split('\n')
            .forEach((line, i) => {
              if (/new IpcError\(\s*['"`]/.test(line)) {
                inline.push(`${relative(root, path)}:${i + 1}`);
              }
            });
        }
      }
    }
    expect(inline).toEqual([]);
  });
});
