import * as fs from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { fileLines, fileLinesBackward } from './line-scan.js';

// readSync counted: how many bytes a backward walk reads for what it yields.
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return { ...actual, readSync: vi.fn(actual.readSync) };
});

const dir = mkdtempSync(join(tmpdir(), 'line-scan-reads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bytesRead(): number {
  return vi.mocked(fs.readSync).mock.calls.reduce((sum, call) => sum + Number((call as unknown[])[3] ?? 0), 0);
}

/** `use` given a read fd on `path`, closed afterwards. */
function withFd<T>(path: string, use: (fd: number) => T): T {
  const fd = fs.openSync(path, 'r');
  try {
    return use(fd);
  } finally {
    fs.closeSync(fd);
  }
}

describe('backward reads grow from a small first chunk', () => {
  // 4 MB of 2 KB records, the shape of a sealed segment under a chat load.
  const path = join(dir, 'segment.jsonl');
  const lines = Array.from({ length: 2048 }, (_, i) => `${String(i).padStart(6, '0')} ${'x'.repeat(2040)}`);
  writeFileSync(path, lines.map((l) => l + '\n').join(''));
  const size = fs.statSync(path).size;

  it('the last line of a large file costs kilobytes, not a megabyte', () => {
    vi.mocked(fs.readSync).mockClear();
    const last = withFd(path, (fd) => fileLinesBackward(fd, size).next());
    expect(last.done).toBe(false);
    if (!last.done) expect(last.value.bytes.toString()).toBe(lines.at(-1));
    expect(bytesRead()).toBeLessThanOrEqual(32 * 1024);
  });

  it('the newest twenty lines read about what they hold', () => {
    vi.mocked(fs.readSync).mockClear();
    const newest = withFd(path, (fd) => {
      const walk = fileLinesBackward(fd, size);
      return Array.from({ length: 20 }, () => walk.next().value!.bytes.toString());
    });
    expect(newest).toEqual(lines.slice(-20).reverse());
    expect(bytesRead()).toBeLessThanOrEqual(128 * 1024);
  });

  it('a whole walk still yields every line, across the growing chunk sizes', () => {
    const all = withFd(path, (fd) => [...fileLinesBackward(fd, size)].map((l) => l.bytes.toString()));
    expect(all).toEqual([...fileLines(path)].map((l) => l.bytes.toString()).reverse());
    expect(all).toHaveLength(lines.length);
  });
});
