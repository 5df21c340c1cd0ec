// Build step after the full CLI's bundle (tsup.hooks.config.ts, onSuccess): stamp dist/cli.cjs
// with a hash of its content and write its V8 code cache, dist/cli.cjs.v8cache (bin/code-cache.js
// says how it is used and why it is safe).
//
// The cache is recorded by a real run of a command (`actor list` in an empty home: commander's
// parse, a command's registration, a daemon call and its error report), in a node without
// NODE_OPTIONS, because V8 refuses a cache made under other V8 flags than the run's.
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const require = createRequire(import.meta.url);
const { STAMP_PREFIX, STAMP_LENGTH, CACHE_SUFFIX } = require('../bin/code-cache.js');

const bundle = fileURLToPath(new URL('../dist/cli.cjs', import.meta.url));
const codeCache = fileURLToPath(new URL('../bin/code-cache.js', import.meta.url));
const TRAINING_ARGS = ['actor', 'list', '--group', 'g_code_cache'];

// A stale cache must not outlive a failed run of this step.
rmSync(bundle + CACHE_SUFFIX, { force: true });

const source = readFileSync(bundle, 'utf8');
if (!source.startsWith(STAMP_PREFIX)) throw new Error(`${bundle} does not start with ${STAMP_PREFIX}: the banner in tsup.hooks.config.ts is its stamp`);
const placeholder = '0'.repeat(STAMP_LENGTH);
const stampEnd = STAMP_PREFIX.length + STAMP_LENGTH;
// Hashed with the placeholder in place, so running this step twice gives the same stamp.
const unstamped = STAMP_PREFIX + placeholder + source.slice(stampEnd);
const stamp = createHash('sha256').update(unstamped).digest('hex').slice(0, STAMP_LENGTH);
const tmp = `${bundle}.${process.pid}.tmp`;
writeFileSync(tmp, STAMP_PREFIX + stamp + source.slice(stampEnd));
renameSync(tmp, bundle);

const home = mkdtempSync(join(tmpdir(), 'cccc-code-cache-'));
try {
  await promisify(execFile)(process.execPath, [codeCache, '--record', bundle, ...TRAINING_ARGS], {
    env: { PATH: process.env.PATH, CCCC_HOME: home },
    timeout: 60_000,
  }).catch((error) => {
    // The training command fails by design (no daemon runs in the empty home); only a failure to
    // record counts.
    if (typeof error.code !== 'number') throw error;
  });
} finally {
  rmSync(home, { recursive: true, force: true });
}
console.log(`code cache: ${bundle}${CACHE_SUFFIX} (${statSync(bundle + CACHE_SUFFIX).size} bytes, stamp ${stamp})`);
