#!/usr/bin/env node
// Installs the pinned local npm registry (Verdaccio, pins.json) into a per-user cache outside the
// project's dependency tree, keyed by the pins, so a newcomer's `npm install` stays lean. The
// release test (tools/src/release) publishes our packages into it and installs them back.
//
//   node tools/local-registry/install.mjs              install unless already complete; exit 1 on failure
//   node tools/local-registry/install.mjs --if-absent  same, but a failure only prints SKIPPED and the
//                                                      reason and exits 0 (`npm test`); the release
//                                                      test then skips with that reason, or fails
//                                                      under CI=true
//
// Pins: verdaccio 6.8.0 is the newest line that runs on Node 20; its audit plugin's node-fetch is
// overridden to 2.7.0 (the CommonJS line that Node 20 loads). The install goes into a temp folder
// beside the target and is renamed into place only after `verdaccio --version` answered and the
// marker file was written: an interrupted install never looks complete. Plain ESM, no
// dependencies: it runs before anything is built.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstErrorLine, run } from '../install-steps.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/** `{ dependencies, overrides }`, exact versions. Bump them in pins.json (RELEASING.md). */
export const LOCAL_REGISTRY_PINS = Object.freeze(JSON.parse(readFileSync(join(here, 'pins.json'), 'utf8')));

export const MARKER_FILE = 'cccc-local-registry.complete.json';

/** Key of the cache folder: the pins, canonically ordered. */
export function pinsKey(pins = LOCAL_REGISTRY_PINS) {
  const sorted = (o = {}) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  const canonical = JSON.stringify({ dependencies: sorted(pins.dependencies), overrides: sorted(pins.overrides) });
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

export function localRegistryCacheRoot(env = process.env) {
  if (env.CCCC_LOCAL_REGISTRY_CACHE) return env.CCCC_LOCAL_REGISTRY_CACHE;
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(base, 'cccc-local-registry');
}

export function localRegistryDir(env = process.env, pins = LOCAL_REGISTRY_PINS) {
  return join(localRegistryCacheRoot(env), pinsKey(pins));
}

/**
 * `{ ok: true, dir, bin, version }` when a complete install for these pins is in the cache
 * (`bin` is verdaccio's JS entry, run it with node); `{ ok: false, dir, reason }` otherwise.
 */
export function readLocalRegistry(env = process.env, pins = LOCAL_REGISTRY_PINS) {
  const dir = localRegistryDir(env, pins);
  const markerPath = join(dir, MARKER_FILE);
  if (!existsSync(markerPath)) {
    const lastFailure = existsSync(`${dir}.failure.txt`) ? readFileSync(`${dir}.failure.txt`, 'utf8').trim() : '';
    const reason = existsSync(dir)
      ? `${dir} has no ${MARKER_FILE} (an incomplete install)`
      : lastFailure
        ? `the last install failed: ${lastFailure}`
        : `the local registry (verdaccio) is not installed in ${dir}; run \`npm run local-registry:install\``;
    return { ok: false, dir, reason };
  }
  let marker;
  try {
    marker = JSON.parse(readFileSync(markerPath, 'utf8'));
  } catch (error) {
    return { ok: false, dir, reason: `${markerPath} is unreadable: ${error.message}` };
  }
  if (pinsKey(marker.pins ?? {}) !== pinsKey(pins)) return { ok: false, dir, reason: `${markerPath} records other pins than pins.json` };
  const bin = join(dir, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
  if (!existsSync(bin)) return { ok: false, dir, reason: `${bin} is missing` };
  return { ok: true, dir, bin, version: marker.version };
}

/**
 * Installs unless a complete install is present. Returns the same shape as readLocalRegistry,
 * plus `installed: true` and `seconds` when this call did the install.
 */
export function installLocalRegistry({ env = process.env, pins = LOCAL_REGISTRY_PINS, log = () => {} } = {}) {
  const present = readLocalRegistry(env, pins);
  if (present.ok) return present;
  const dir = present.dir;
  const started = Date.now();
  const staging = `${dir}.tmp-${process.pid}-${Date.now().toString(36)}`;
  mkdirSync(staging, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  try {
    writeFileSync(
      join(staging, 'package.json'),
      `${JSON.stringify({ name: 'cccc-local-registry', private: true, dependencies: pins.dependencies, overrides: pins.overrides }, null, 2)}\n`,
    );
    // Ask the registry first, briefly: without it npm retries with back-off for minutes.
    const [name, version] = Object.entries(pins.dependencies)[0];
    const probe = run(npm, ['view', `${name}@${version}`, 'version', '--fetch-retries=0', '--fetch-timeout=20000', '--loglevel=error'], {
      cwd: staging,
      env,
      timeout: 30_000,
    });
    if (!probe.ok) throw new Error(`the npm registry did not answer: ${firstErrorLine(probe.full ?? probe.output)}`);
    log(`installing ${Object.entries(pins.dependencies).map(([n, v]) => `${n}@${v}`).join(' ')} into ${dir}`);
    const install = run(
      npm,
      ['install', '--prefix', staging, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--ignore-scripts', '--loglevel=error'],
      { cwd: staging, env: { ...env, npm_config_engine_strict: 'false' }, timeout: 10 * 60_000 },
    );
    if (!install.ok) throw new Error(`npm install failed: ${install.output}`);
    const bin = join(staging, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
    const answer = run(process.execPath, [bin, '--version'], { timeout: 60_000, env });
    if (!answer.ok) throw new Error(`the installed verdaccio does not start: ${answer.output}`);
    const installedVersion = answer.output.split('\n').map((l) => l.trim()).filter((l) => /^v?\d+\.\d+\.\d+/.test(l)).pop() ?? answer.output;
    rmSync(`${dir}.failure.txt`, { force: true });
    writeFileSync(join(staging, MARKER_FILE), `${JSON.stringify({ pins, version: installedVersion, installedAt: new Date().toISOString() }, null, 2)}\n`);
    try {
      renameSync(staging, dir);
    } catch {
      // Another installer finished first: keep its copy when it is complete.
      if (!readLocalRegistry(env, pins).ok) {
        rmSync(dir, { recursive: true, force: true });
        renameSync(staging, dir);
      }
    }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    writeFileSync(`${dir}.failure.txt`, `${error.message}\n`);
    return { ok: false, dir, reason: error.message };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  const done = readLocalRegistry(env, pins);
  return done.ok ? { ...done, installed: true, seconds: (Date.now() - started) / 1000 } : done;
}

function main(argv) {
  const soft = argv.includes('--if-absent');
  const ci = process.env.CI === 'true' || process.env.CI === '1';
  const result = installLocalRegistry({ log: (line) => console.log(`local-registry: ${line}`) });
  if (result.ok) {
    const how = result.installed ? `installed in ${result.seconds.toFixed(1)} s` : 'already installed';
    console.log(`local-registry: ${how}: verdaccio ${result.version} in ${result.dir}`);
    return 0;
  }
  console.error(`local-registry: SKIPPED: ${result.reason}`);
  if (!soft) return 1;
  console.error(`local-registry: the release test will ${ci ? 'FAIL (CI=true)' : 'be skipped'} with this reason`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
