import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileLock } from './file-lock.js';
import { ReusableFileLock } from './reusable-lock.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('ReusableFileLock', () => {
  it('excludes other open file descriptions and can be retaken after unlock', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlock-'));
    dirs.push(dir);
    const path = join(dir, 'a.lock');
    const lock = new ReusableFileLock(path);
    expect(lock.tryLock()).toBe(true);
    expect(FileLock.tryAcquire(path)).toBeUndefined();
    expect(() => lock.tryLock()).toThrow(/already held/);
    lock.unlock();
    const other = FileLock.tryAcquire(path);
    expect(other).toBeDefined();
    expect(lock.tryLock()).toBe(false);
    await expect(lock.lock(30)).rejects.toMatchObject({ code: 'ELOCKTIMEOUT' });
    other!.release();
    await lock.lock(1000);
    expect(lock.held).toBe(true);
    lock.close();
    expect(FileLock.tryAcquire(path)?.release()).toBeUndefined();
  });

  it('is released by the kernel when the holding process dies', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlock-'));
    dirs.push(dir);
    const path = join(dir, 'b.lock');
    // A child takes the lock and is SIGKILLed while holding it.
    const script = `const f=require('fs-ext');const fs=require('fs');const fd=fs.openSync(${JSON.stringify(path)},'a');f.flockSync(fd,'exnb');process.kill(process.pid,'SIGKILL');`;
    const r = spawnSync(process.execPath, ['-e', script], { cwd: join(import.meta.dirname, '..') });
    expect(r.signal).toBe('SIGKILL');
    const lock = new ReusableFileLock(path);
    expect(lock.tryLock()).toBe(true);
    lock.close();
  });
});
