import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OwnedFile, type FileCodec } from './owned-file.js';

const reads = vi.hoisted(() => [] as string[]);
vi.mock('node:fs/promises', async (importOriginal) => {
  const { recordingReads } = await import('../../test-support/read-recorder.js');
  return recordingReads(await importOriginal<typeof import('node:fs/promises')>(), reads);
});

/** A counter file: missing is 0, anything unparsable is null (a corrupt record). */
const codec: FileCodec<number | null, number> = {
  decode: (text) => (text === null ? 0 : /^\d+\n$/.test(text) ? Number(text) : null),
  encode: (n) => `${n}\n`,
};

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wt-hooks-owned-'));
  path = join(dir, 'sub', 'n.json');
  reads.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('OwnedFile', () => {
  it('writes through and serves its own writes from memory, never reading them back', async () => {
    const file = new OwnedFile(path, codec);
    expect(await file.get()).toBe(0);
    for (let i = 1; i <= 20; i++) {
      await file.set(i);
      expect(await file.get()).toBe(i);
      expect(readFileSync(path, 'utf8')).toBe(`${i}\n`);
    }
    await file.remove();
    expect(await file.get()).toBe(0);
    expect(reads).toEqual([]);
  });

  it('reads the durable record on first use (a restart) and whenever someone else changed it', async () => {
    await new OwnedFile(path, codec).set(7);
    const restarted = new OwnedFile(path, codec);
    expect(await restarted.get()).toBe(7);
    expect(await restarted.get()).toBe(7);
    expect(reads).toEqual([path]);

    writeFileSync(path, 'garbage'); // an operator, a test, another process sharing the home
    expect(await restarted.get()).toBeNull();
    writeFileSync(path, '9\n');
    expect(await restarted.get()).toBe(9);
    rmSync(path);
    expect(await restarted.get()).toBe(0);
    expect(reads).toEqual([path, path, path]);
  });

  it('readers see the last committed value while a write is in flight', async () => {
    const file = new OwnedFile(path, codec);
    await file.set(1);
    const writing = file.set(2);
    expect(await file.get()).toBe(1);
    await writing;
    expect(await file.get()).toBe(2);
    expect(reads).toEqual([]);
  });

  it('after a failed write the file is the truth again', async () => {
    const file = new OwnedFile(path, codec);
    await file.set(3);
    rmSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'sub'), 'a file where the directory was');
    await expect(file.set(4)).rejects.toThrow();
    rmSync(join(dir, 'sub'));
    expect(await file.get()).toBe(0);
  });
});
