import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileDurably, createFileDurablySync, writeFileAtomicSync } from './atomic-write.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'durable-fs-'));
  dirs.push(d);
  return d;
};

describe('createFileDurablySync', () => {
  it('creates a new file (and its directory) in place, without a temporary file', () => {
    const path = join(tempDir(), 'state', 'marker.json');
    expect(createFileDurablySync(path, '{"a":1}\n')).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n');
    expect(readdirSync(join(path, '..'))).toEqual(['marker.json']);
  });

  it('refuses an existing file and leaves it as it was', () => {
    const path = join(tempDir(), 'marker.json');
    writeFileAtomicSync(path, 'old');
    expect(createFileDurablySync(path, 'new')).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('old');
  });
});

describe('createFileDurably (async: the syncs run on the thread pool)', () => {
  it('creates a new file (and its directory) in place, without a temporary file', async () => {
    const path = join(tempDir(), 'state', 'marker.json');
    expect(await createFileDurably(path, '{"a":1}\n')).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n');
    expect(readdirSync(join(path, '..'))).toEqual(['marker.json']);
  });

  it('refuses an existing file and leaves it as it was', async () => {
    const path = join(tempDir(), 'marker.json');
    writeFileAtomicSync(path, 'old');
    expect(await createFileDurably(path, 'new')).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('old');
  });
});
