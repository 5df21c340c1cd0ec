#!/usr/bin/env node
// Installs the pinned real agent CLIs (pins.json) into a per-user cache outside the project's
// dependency tree, keyed by the pins, so a newcomer's `npm install` stays lean.
//
//   node tools/real-clis/install.mjs              install unless already complete; exit 1 on failure
//   node tools/real-clis/install.mjs --if-absent  same, but a failure only prints SKIPPED and the
//                                                 reason and exits 0, so the other tests still run
//                                                 (`npm test`); the real-CLI tests then skip with
//                                                 that reason, or fail when CI=true
//
// The install goes into a temp folder beside the target and is renamed into place only after
// every binary answered --version and the marker file was written: an interrupted install never
// looks complete. Plain ESM with no dependencies: it runs before anything is built.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstErrorLine, run } from '../install-steps.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/** Package name -> exact version. Bump them in pins.json (README: "Real agent CLIs"). */
export const REAL_CLI_PINS = Object.freeze(JSON.parse(readFileSync(join(here, 'pins.json'), 'utf8')));

/** The binaries the pinned packages provide, each with the package that provides it. */
export const REAL_CLI_BINARIES = Object.freeze({
  claude: '@anthropic-ai/claude-code',
  codex: '@openai/codex',
  opencode: 'opencode-ai',
  kilo: '@kilocode/cli',
  copilot: '@github/copilot',
});

export const MARKER_FILE = 'cccc-real-clis.complete.json';

/** Key of the cache folder: the pins and the platform (the packages ship native binaries). */
export function pinsKey(pins = REAL_CLI_PINS) {
  const canonical = JSON.stringify({
    pins: Object.fromEntries(Object.entries(pins).sort(([a], [b]) => a.localeCompare(b))),
    platform: `${process.platform}-${process.arch}`,
  });
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

export function realClisCacheRoot(env = process.env) {
  if (env.CCCC_REAL_CLIS_CACHE) return env.CCCC_REAL_CLIS_CACHE;
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(base, 'cccc-real-clis');
}

export function realClisDir(env = process.env, pins = REAL_CLI_PINS) {
  return join(realClisCacheRoot(env), pinsKey(pins));
}

/**
 * `{ ok: true, dir, binDir }` when a complete install for these pins is in the cache;
 * `{ ok: false, dir, reason }` otherwise.
 */
export function readRealClis(env = process.env, pins = REAL_CLI_PINS) {
  const dir = realClisDir(env, pins);
  const binDir = join(dir, 'node_modules', '.bin');
  const markerPath = join(dir, MARKER_FILE);
  if (!existsSync(markerPath)) {
    const lastFailure = existsSync(`${dir}.failure.txt`) ? readFileSync(`${dir}.failure.txt`, 'utf8').trim() : '';
    const reason = existsSync(dir)
      ? `${dir} has no ${MARKER_FILE} (an incomplete install)`
      : lastFailure
        ? `the last install failed: ${lastFailure}`
        : `the real CLIs are not installed in ${dir}; run \`npm run real-clis:install\``;
    return { ok: false, dir, reason };
  }
  let marker;
  try {
    marker = JSON.parse(readFileSync(markerPath, 'utf8'));
  } catch (error) {
    return { ok: false, dir, reason: `${markerPath} is unreadable: ${error.message}` };
  }
  if (JSON.stringify(marker.pins) !== JSON.stringify(pins)) {
    return { ok: false, dir, reason: `${markerPath} records other pins than pins.json` };
  }
  for (const bin of Object.keys(REAL_CLI_BINARIES)) {
    if (!existsSync(join(binDir, bin))) return { ok: false, dir, reason: `${join(binDir, bin)} is missing` };
  }
  return { ok: true, dir, binDir, versions: marker.versions };
}

/**
 * Installs unless a complete install is present. Returns the same shape as readRealClis, plus
 * `installed: true` and `seconds` when this call did the install.
 */
export function installRealClis({ env = process.env, pins = REAL_CLI_PINS, log = () => {} } = {}) {
  const present = readRealClis(env, pins);
  if (present.ok) return present;
  const dir = present.dir;
  const started = Date.now();
  const staging = `${dir}.tmp-${process.pid}-${Date.now().toString(36)}`;
  mkdirSync(staging, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  try {
    // A package.json of our own: exact pins, and npm 11's allowScripts for the three packages,
    // whose postinstall scripts put the native binary in place (claude and opencode only hold a
    // stub until it runs, so --ignore-scripts would break them).
    writeFileSync(
      join(staging, 'package.json'),
      `${JSON.stringify(
        {
          name: 'cccc-real-clis',
          private: true,
          dependencies: pins,
          allowScripts: Object.fromEntries(Object.keys(pins).map((name) => [name, true])),
        },
        null,
        2,
      )}\n`,
    );
    // Ask the registry first, briefly: without it npm retries with back-off for minutes.
    const probe = run(npm, ['view', `${Object.keys(pins)[0]}@${Object.values(pins)[0]}`, 'version', '--fetch-retries=0', '--fetch-timeout=20000', '--loglevel=error'], {
      cwd: staging,
      env,
      timeout: 30_000,
    });
    if (!probe.ok) throw new Error(`the npm registry did not answer: ${firstErrorLine(probe.full ?? probe.output)}`);
    log(`installing ${Object.entries(pins).map(([n, v]) => `${n}@${v}`).join(' ')} into ${dir}`);
    const install = run(
      npm,
      ['install', '--prefix', staging, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'],
      { cwd: staging, env: { ...env, npm_config_engine_strict: 'false' }, timeout: 20 * 60_000 },
    );
    if (!install.ok) throw new Error(`npm install failed: ${install.output}`);
    const versions = {};
    for (const bin of Object.keys(REAL_CLI_BINARIES)) {
      const probe = run(join(staging, 'node_modules', '.bin', bin), ['--version'], { timeout: 60_000, env });
      if (!probe.ok) throw new Error(`the installed ${bin} does not start: ${probe.output}`);
      // The line that names the version (copilot prints an update hint after it).
      const lines = probe.output.split('\n');
      versions[bin] = lines.find((line) => /\d+\.\d+\.\d+/.test(line))?.trim() ?? lines.pop();
    }
    rmSync(`${dir}.failure.txt`, { force: true });
    writeFileSync(join(staging, MARKER_FILE), `${JSON.stringify({ pins, versions, installedAt: new Date().toISOString() }, null, 2)}\n`);
    try {
      renameSync(staging, dir);
    } catch (error) {
      // Another installer finished first: keep its copy when it is complete.
      if (!readRealClis(env, pins).ok) {
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
  const done = readRealClis(env, pins);
  return done.ok ? { ...done, installed: true, seconds: (Date.now() - started) / 1000 } : done;
}

function main(argv) {
  const soft = argv.includes('--if-absent');
  const ci = process.env.CI === 'true' || process.env.CI === '1';
  const result = installRealClis({ log: (line) => console.log(`real-clis: ${line}`) });
  if (result.ok) {
    const how = result.installed ? `installed in ${result.seconds.toFixed(1)} s` : 'already installed';
    console.log(`real-clis: ${how}: ${result.binDir} (${Object.values(result.versions ?? {}).join(', ')})`);
    return 0;
  }
  console.error(`real-clis: SKIPPED: ${result.reason}`);
  if (!soft) return 1;
  console.error(`real-clis: the real-CLI tests will ${ci ? 'FAIL (CI=true)' : 'be skipped'} with this reason`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
