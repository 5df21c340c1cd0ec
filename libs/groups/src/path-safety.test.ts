import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readScopedFiles, resolveScopedFile } from './path-safety.js';

let base: string;
let scope: string;
let outside: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'cccc-paths-'));
  scope = join(base, 'scope');
  outside = join(base, 'outside');
  mkdirSync(join(scope, 'src', 'deep'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(scope, 'README.md'), 'hello');
  writeFileSync(join(scope, 'src', 'deep', 'a.ts'), 'export {}');
  writeFileSync(join(outside, 'secret.txt'), 'nope');
  symlinkSync(join(outside, 'secret.txt'), join(scope, 'escape-file'));
  symlinkSync(outside, join(scope, 'escape-dir'));
  symlinkSync(join(scope, 'README.md'), join(scope, 'inside-link'));
  symlinkSync(join(scope, 'loop-b'), join(scope, 'loop-a'));
  symlinkSync(join(scope, 'loop-a'), join(scope, 'loop-b'));
  symlinkSync(join(scope, 'missing'), join(scope, 'dangling'));
  execFileSync('mkfifo', [join(scope, 'pipe')]);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('resolveScopedFile', () => {
  it.each([
    ['README.md', 'README.md'],
    ['./src/deep/a.ts', 'src/deep/a.ts'],
    ['src/deep/../../README.md', 'README.md'],
    ['inside-link', 'README.md'],
  ])('accepts %s → %s', (input, rel) => {
    expect(resolveScopedFile(scope, input)).toMatchObject({ rel_path: rel });
  });

  it('accepts absolute paths inside the scope, including through a symlinked scope root', () => {
    expect(resolveScopedFile(scope, join(scope, 'README.md')).size).toBe(5);
    const linkRoot = join(base, 'scope-link');
    symlinkSync(scope, linkRoot);
    expect(resolveScopedFile(linkRoot, join(linkRoot, 'src/deep/a.ts')).rel_path).toBe('src/deep/a.ts');
  });

  it.each([
    ['../outside/secret.txt', 'outside_scope'],
    ['src/../../outside/secret.txt', 'outside_scope'],
    ['..', 'outside_scope'],
    ['escape-file', 'outside_scope'],
    ['escape-dir/secret.txt', 'outside_scope'],
    ['/etc/passwd', 'outside_scope'],
    ['SCOPE/../outside/secret.txt', 'outside_scope'],
    ['src', 'invalid_path'],
    ['.', 'invalid_path'],
    ['pipe', 'invalid_path'],
    ['loop-a', 'invalid_path'],
    ['', 'invalid_path'],
    ['nul\0byte', 'invalid_path'],
    ['missing.txt', 'path_not_found'],
    ['dangling', 'path_not_found'],
  ])('rejects %j with %s', (input, code) => {
    const path = input.startsWith('SCOPE') ? input.replace('SCOPE', scope) : input;
    expect(() => resolveScopedFile(scope, path)).toThrowError(expect.objectContaining({ code }));
  });

  it('reads all files or none', () => {
    expect(readScopedFiles(scope, ['README.md']).map((f) => f.bytes.toString())).toEqual(['hello']);
    expect(() => readScopedFiles(scope, ['README.md', 'escape-file'])).toThrowError(expect.objectContaining({ code: 'outside_scope' }));
  });
});
