'use strict';
// The full CLI (dist/cli.cjs, ~210 KB with commander inlined) run from the V8 code cache the build
// writes beside it (dist/cli.cjs.v8cache, by scripts/write-code-cache.mjs): V8 then deserializes
// the bytecode of what a command runs instead of parsing and compiling the bundle, 4–5 ms of a
// command's start-up here (`npm run bench -- cli`).
//
// The cache is only a speed-up and never changes what runs:
// - The build stamps the bundle's first line with a hash of its content and writes the same stamp
//   at the head of the cache; a cache whose stamp differs from the bundle's (a rebuild that did not
//   rewrite it, a copied file) is not offered to V8.
// - V8 itself refuses a cache from another V8 version or other V8 flags (another node, NODE_OPTIONS)
//   or one that is damaged, and compiles the source as it would without one.
// The cache lives in the package, written by whoever built it, as the bundle is; nothing is
// written at run time (unlike a shared cache in a temporary directory).
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { dirname } = require('node:path');
const vm = require('node:vm');

// The CommonJS loader's Module class, reached without loading node:module (which loads parts of
// node's ES module loader and its source-map support with it).
const Module = module.constructor;

const STAMP_PREFIX = '/*! cccc-build ';
const STAMP_LENGTH = 16;
const CACHE_SUFFIX = '.v8cache';

/** The bundle's build stamp (on its first line), or undefined for an unstamped bundle. */
function stampOf(source) {
  if (!source.startsWith(STAMP_PREFIX)) return undefined;
  const stamp = source.slice(STAMP_PREFIX.length, STAMP_PREFIX.length + STAMP_LENGTH);
  return /^[0-9a-f]+$/.test(stamp) && stamp !== '0'.repeat(STAMP_LENGTH) ? stamp : undefined;
}

/** The cache's V8 bytes when it carries the bundle's stamp. */
function cachedDataFor(file, source) {
  const stamp = stampOf(source);
  if (stamp === undefined) return undefined;
  let data;
  try {
    data = readFileSync(file + CACHE_SUFFIX);
  } catch {
    return undefined;
  }
  return data.length > STAMP_LENGTH && data.toString('latin1', 0, STAMP_LENGTH) === stamp ? data.subarray(STAMP_LENGTH) : undefined;
}

function compile(file, source, cachedData) {
  // No importModuleDynamically: node 20 drops it for code compiled from a cache, so the bundle
  // holds no import() (its ES module packages load through dist/packages.cjs, see src/packages.ts).
  return new vm.Script(Module.wrap(source), { filename: file, cachedData });
}

/** Runs the compiled CommonJS wrapper as require would: its own module, require and cache entry. */
function run(script, file, parent) {
  const dir = dirname(file);
  const child = new Module(file, parent);
  child.filename = file;
  child.paths = Module._nodeModulePaths(dir);
  Module._cache[file] = child;
  const childRequire = (id) => child.require(id);
  childRequire.resolve = (request, options) => Module._resolveFilename(request, child, false, options);
  childRequire.main = require.main;
  childRequire.cache = Module._cache;
  script.runInThisContext().call(child.exports, child.exports, childRequire, child, file, dir);
  child.loaded = true;
}

/**
 * Runs the CommonJS `file` (an absolute path) from its code cache when one matches. Returns
 * whether V8 used the cache.
 */
function runWithCodeCache(file, parent = module) {
  const source = readFileSync(file, 'utf8');
  const cachedData = cachedDataFor(file, source);
  const script = compile(file, source, cachedData);
  run(script, file, parent);
  return cachedData !== undefined && script.cachedDataRejected === false;
}

/**
 * Runs the stamped `file` with `args` as its command line and, when the process exits, writes
 * the code cache of everything V8 compiled by then (so a command's own functions are in it, not
 * only the bundle's top level). Build time only: scripts/write-code-cache.mjs.
 */
function recordCodeCache(file, args) {
  const source = readFileSync(file, 'utf8');
  const stamp = stampOf(source);
  if (stamp === undefined) throw new Error(`${file} carries no build stamp`);
  const script = compile(file, source, undefined);
  process.once('exit', () => {
    const tmp = `${file}${CACHE_SUFFIX}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.concat([Buffer.from(stamp, 'latin1'), script.createCachedData()]));
    renameSync(tmp, file + CACHE_SUFFIX);
  });
  process.argv = [process.argv[0], file, ...args];
  run(script, file, module);
}

module.exports = { runWithCodeCache, recordCodeCache, stampOf, STAMP_PREFIX, STAMP_LENGTH, CACHE_SUFFIX };

// `node bin/code-cache.js --record <file> <args…>`: how the build records the cache.
if (require.main === module && process.argv[2] === '--record') recordCodeCache(process.argv[3], process.argv.slice(4));
