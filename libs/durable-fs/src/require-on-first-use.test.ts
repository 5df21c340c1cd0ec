import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { requireOnFirstUse } from './require-on-first-use.js';

describe('requireOnFirstUse', () => {
  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('loads nothing until called, resolves from the given module, and loads once', () => {
    dir = mkdtempSync(join(tmpdir(), 'cccc-late-require-'));
    const counter = join(dir, 'loads.cjs');
    writeFileSync(counter, 'globalThis.__lateLoads = (globalThis.__lateLoads ?? 0) + 1; module.exports = { value: 42 };');
    const g = globalThis as { __lateLoads?: number };
    delete g.__lateLoads;
    const load = requireOnFirstUse<{ value: number }>(pathToFileURL(join(dir, 'caller.js')), './loads.cjs');
    expect(g.__lateLoads).toBeUndefined();
    expect(load().value).toBe(42);
    expect(load()).toBe(load());
    expect(g.__lateLoads).toBe(1);
  });

  it('surfaces a missing module at the call, not at import', () => {
    const load = requireOnFirstUse(import.meta.url, 'cccc-no-such-module');
    expect(load).toThrow(/cccc-no-such-module/);
  });

  it('a process that imports this package and takes no lock never loads the flock addon', () => {
    const pkg = fileURLToPath(new URL('../dist/index.js', import.meta.url));
    const script = (lock: boolean) =>
      `const m = await import(${JSON.stringify(pathToFileURL(pkg).href)});` +
      (lock ? `const l = await m.FileLock.acquire(${JSON.stringify(join(tmpdir(), `cccc-late-lock-${process.pid}`))}); l.release();` : '') +
      `const { createRequire } = await import('node:module');` +
      `process.stdout.write(String(Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('fs-ext'))));`;
    expect(execFileSync(process.execPath, ['--input-type=module', '-e', script(false)], { encoding: 'utf8' })).toBe('false');
    expect(execFileSync(process.execPath, ['--input-type=module', '-e', script(true)], { encoding: 'utf8' })).toBe('true');
  });
});
