import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// bin/code-cache.js runs the built full CLI (dist/cli.cjs) from the V8 code cache the build writes
// beside it. The cache may only make a command faster: whatever is wrong with it (stale, damaged,
// missing, made under other V8 flags), the command prints what it prints without one.

const require = createRequire(import.meta.url);
const run = promisify(execFile);
const CODE_CACHE = fileURLToPath(new URL('../bin/code-cache.js', import.meta.url));
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const { STAMP_PREFIX, STAMP_LENGTH, CACHE_SUFFIX } = require(CODE_CACHE) as { STAMP_PREFIX: string; STAMP_LENGTH: number; CACHE_SUFFIX: string };

const scratch = mkdtempSync(join(tmpdir(), 'cccc-code-cache-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface CachedRun {
  readonly cacheUsed: boolean;
  readonly stdout: string;
}

/** `cccc <args>` run from `bundle` through runWithCodeCache in a fresh node, in an empty home. */
async function runCached(bundle: string, args: readonly string[], nodeArgs: readonly string[] = []): Promise<CachedRun> {
  const script = `process.argv = [process.argv[0], 'cccc', ...JSON.parse(process.env.ARGS)];
const used = require(${JSON.stringify(CODE_CACHE)}).runWithCodeCache(${JSON.stringify(bundle)});
process.on('exit', () => process.stderr.write('cache-used=' + used));`;
  const home = mkdtempSync(join(scratch, 'home-'));
  const { stdout, stderr } = await run(process.execPath, [...nodeArgs, '-e', script], {
    env: { PATH: process.env.PATH, CCCC_HOME: home, ARGS: JSON.stringify(args) },
  });
  return { cacheUsed: /cache-used=true$/.test(stderr), stdout };
}

/** A copy of the built bundle and its cache in a folder of its own, for spoiling one of them. */
function copyOfBuild(name: string): { bundle: string; cache: string } {
  const dir = mkdtempSync(join(scratch, `${name}-`));
  const bundle = join(dir, 'cli.cjs');
  copyFileSync(join(DIST, 'cli.cjs'), bundle);
  copyFileSync(join(DIST, `cli.cjs${CACHE_SUFFIX}`), bundle + CACHE_SUFFIX);
  return { bundle, cache: bundle + CACHE_SUFFIX };
}

/** Rewrite the bundle's stamp (same length, so only the stamp tells the cache is not its own). */
function restamp(bundle: string, stamp: string): void {
  const source = readFileSync(bundle, 'utf8');
  writeFileSync(bundle, STAMP_PREFIX + stamp + source.slice(STAMP_PREFIX.length + STAMP_LENGTH));
}

describe('the full CLI from its V8 code cache', () => {
  it('the build stamps the bundle and writes a cache with the same stamp, which V8 takes', async () => {
    const source = readFileSync(join(DIST, 'cli.cjs'), 'utf8');
    const stamp = source.slice(STAMP_PREFIX.length, STAMP_PREFIX.length + STAMP_LENGTH);
    expect(source.startsWith(STAMP_PREFIX)).toBe(true);
    expect(stamp).toMatch(/^[0-9a-f]{16}$/);
    expect(stamp).not.toBe('0'.repeat(STAMP_LENGTH));
    expect(readFileSync(join(DIST, `cli.cjs${CACHE_SUFFIX}`)).toString('latin1', 0, STAMP_LENGTH)).toBe(stamp);

    const cached = await runCached(join(DIST, 'cli.cjs'), ['actor', '--help']);
    expect(cached.cacheUsed).toBe(true);
    expect(cached.stdout).toMatch(/^Usage: cccc actor /);
  });

  it('holds no import() of its own, and loads its ES module packages from the cache through dist/packages.cjs', async () => {
    // node 20 drops the dynamic-import callback of code compiled from a cache.
    expect(readFileSync(join(DIST, 'cli.cjs'), 'utf8')).not.toMatch(/\bimport\(/);
    const listed = await runCached(join(DIST, 'cli.cjs'), ['runtime', 'list']);
    expect(listed.cacheUsed).toBe(true);
    expect(listed.stdout).toMatch(/^RUNTIME +INSTALLED/);
    expect(listed.stdout).toMatch(/^claude /m);
  });

  it('a stale, damaged, missing or foreign cache is not used, and the command prints the same', async () => {
    const expected = (await runCached(join(DIST, 'cli.cjs'), ['actor', '--help'])).stdout;

    const stale = copyOfBuild('stale');
    restamp(stale.bundle, 'feedfacefeedface');
    const damaged = copyOfBuild('damaged');
    const bytes = readFileSync(damaged.cache);
    bytes.fill(0x5a, STAMP_LENGTH);
    writeFileSync(damaged.cache, bytes);
    const missing = copyOfBuild('missing');
    rmSync(missing.cache);
    const unstamped = copyOfBuild('unstamped');
    restamp(unstamped.bundle, '0'.repeat(STAMP_LENGTH));
    writeFileSync(unstamped.cache, Buffer.concat([Buffer.from('0'.repeat(STAMP_LENGTH)), readFileSync(unstamped.cache).subarray(STAMP_LENGTH)]));

    const runs = {
      stale: await runCached(stale.bundle, ['actor', '--help']),
      damaged: await runCached(damaged.bundle, ['actor', '--help']),
      missing: await runCached(missing.bundle, ['actor', '--help']),
      unstamped: await runCached(unstamped.bundle, ['actor', '--help']),
      // V8 refuses a cache made under other V8 flags (here a heap flag, as NODE_OPTIONS could set).
      otherFlags: await runCached(join(DIST, 'cli.cjs'), ['actor', '--help'], ['--max-semi-space-size=2']),
    };
    for (const [name, r] of Object.entries(runs)) {
      expect(r.cacheUsed, name).toBe(false);
      expect(r.stdout, name).toBe(expected);
    }
  });
});
