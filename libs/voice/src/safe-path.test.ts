import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveWithoutSymlinks, safeDocumentPath, safePathComponent } from './safe-path.js';

const code = (fn: () => unknown) => {
  try {
    fn();
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
};

describe('safePathComponent', () => {
  it('accepts plain ids, trimmed', () => {
    expect(safePathComponent(' vs_1a2b ')).toBe('vs_1a2b');
    expect(safePathComponent('doc-42.v2')).toBe('doc-42.v2');
  });
  it.each(['', ' ', '.', '..', '../x', 'a/b', 'a\\b', '/etc', 'x..y', '.hidden', 'a\u0000b', 'x'.repeat(161), 'C:evil'])('refuses %j as invalid_path', (id) => {
    expect(code(() => safePathComponent(id))).toBe('invalid_path');
  });
});

describe('safeDocumentPath', () => {
  it('accepts repository-relative .md paths, normalizing backslashes', () => {
    expect(safeDocumentPath('docs/voice-secretary/notes.md')).toBe('docs/voice-secretary/notes.md');
    expect(safeDocumentPath('docs\\a.MD')).toBe('docs/a.MD');
  });
  it.each(['', '/abs/x.md', 'C:/x.md', '../x.md', 'docs/../x.md', 'docs/./x.md', 'docs//x.md', 'docs/x.txt', 'docs/x', 'a\nb.md'])('refuses %j', (p) => {
    expect(code(() => safeDocumentPath(p))).toBe('invalid_path');
  });
});

describe('resolveWithoutSymlinks', () => {
  const root = mkdtempSync(join(tmpdir(), 'voice-path-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'docs'), { recursive: true });
  const outside = mkdtempSync(join(tmpdir(), 'voice-outside-'));
  afterAll(() => rmSync(outside, { recursive: true, force: true }));
  symlinkSync(outside, join(root, 'linked'));
  symlinkSync(join(outside, 'x.md'), join(root, 'docs', 'link.md'));

  it('resolves paths whose existing segments are plain, and missing ones', async () => {
    expect(await resolveWithoutSymlinks(root, 'docs/new/deep.md')).toBe(join(root, 'docs', 'new', 'deep.md'));
  });
  it('refuses a path through a symlinked directory or to a symlinked file', async () => {
    await expect(resolveWithoutSymlinks(root, 'linked/x.md')).rejects.toMatchObject({ code: 'invalid_path' });
    await expect(resolveWithoutSymlinks(root, 'docs/link.md')).rejects.toMatchObject({ code: 'invalid_path' });
  });
  it('refuses a path that escapes the root', async () => {
    await expect(resolveWithoutSymlinks(root, '../x.md')).rejects.toMatchObject({ code: 'invalid_path' });
  });
});
