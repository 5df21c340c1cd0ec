import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const script = join(root, 'tools', 'cache-native-builds.mjs');
const sqliteDir = dirname(createRequire(join(root, 'package.json')).resolve('better-sqlite3/package.json'));
const prebuildInstall = join(dirname(createRequire(join(sqliteDir, 'package.json')).resolve('prebuild-install/package.json')), 'bin.js');

describe('the postinstall native build cache', () => {
  const temps: string[] = [];
  const temp = () => {
    const dir = mkdtempSync(join(tmpdir(), 'cccc-native-cache-'));
    temps.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("puts this machine's better-sqlite3 build where prebuild-install looks, so the next install unpacks it instead of compiling", () => {
    const npmCache = temp();
    const env = { ...process.env, npm_config_cache: npmCache };
    const first = spawnSync(process.execPath, [script], { env, encoding: 'utf8' });
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/better-sqlite3@\d+\.\d+\.\d+: cached this machine's build/);

    // A later install of the same package: prebuild-install, run the way the package's own
    // install script runs it (cwd = the package), finds the cached binary and loads it.
    const pkg = join(temp(), 'better-sqlite3');
    cpSync(join(sqliteDir, 'package.json'), join(pkg, 'package.json'));
    const install = spawnSync(process.execPath, [prebuildInstall, '--verbose'], { cwd: pkg, env, encoding: 'utf8' });
    expect(install.status, install.stderr).toBe(0);
    expect(install.stderr).toContain('found cached prebuild');
    expect(install.stderr).toContain('required');
    expect(existsSync(join(pkg, 'build', 'Release', 'better_sqlite3.node'))).toBe(true);

    // Idempotent and quiet the second time.
    const again = spawnSync(process.execPath, [script], { env, encoding: 'utf8' });
    expect(again.status).toBe(0);
    expect(again.stdout).toBe('');
  });

  it('never fails an install: an unwritable cache is one line and exit 0', () => {
    const file = join(temp(), 'not-a-dir');
    cpSync(script, file);
    const run = spawnSync(process.execPath, [script], { env: { ...process.env, npm_config_cache: file }, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/better-sqlite3: not cached \(/);
  });
});
