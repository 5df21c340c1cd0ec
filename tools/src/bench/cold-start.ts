// cold-start: a newcomer's first hour, timed. From a fresh `git clone` of this checkout's HEAD
// into a temp dir: `npm install` (warm npm cache, offline preferred, as on a machine that has
// installed once), then `npm start` until the Web answers HTTP on its port. Each phase is
// reported with the 2-minute target beside the total, and the raw floor of this machine for the
// ratio: `npm ci` of the same tree, and better-sqlite3's C build alone (install compiles it from
// source here, prebuilds being unreachable). Twice: the first start on this machine (SQLite
// compiles) and a later fresh clone (the first install's postinstall cached this machine's build
// where prebuild-install looks). Takes minutes; never part of `npm test`.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../free-port.js';
import { printTable } from './stats.js';

const TARGET_S = 120;

/** Run a command to its end; its output is kept for the error message only. Returns seconds. */
function timed(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    child.on('exit', (code) => (code === 0 ? resolve((performance.now() - started) / 1000) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${out.slice(-4000)}`))));
  });
}

async function webAnswers(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

/** `npm start` until the Web answers: seconds to "Built in" and to the first HTTP answer. */
async function firstStart(clone: string, env: NodeJS.ProcessEnv, port: number): Promise<{ build: number; answer: number; child: ChildProcess }> {
  const started = performance.now();
  const child = spawn('npm', ['start'], { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  let built: number | undefined;
  child.stdout!.on('data', (d: Buffer) => {
    out += d;
    if (built === undefined && out.includes('Built in')) built = performance.now();
  });
  child.stderr!.on('data', (d: Buffer) => (out += d));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}:\n${out.slice(-4000)}`);
    if (await webAnswers(port)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const answered = performance.now();
  const builtAt = built ?? answered;
  return { build: (builtAt - started) / 1000, answer: (answered - builtAt) / 1000, child };
}

interface ColdStart {
  readonly install: number;
  readonly build: number;
  readonly answer: number;
  readonly total: number;
}

/** One fresh clone of `head`, `npm install`, `npm start` until the Web answers; everything removed after. */
async function coldStart(repo: string, head: string, env: NodeJS.ProcessEnv, dir: string): Promise<ColdStart & { clone: string }> {
  const clone = join(dir, 'repo');
  const port = await freePort();
  const runEnv = { ...env, CCCC_HOME: join(dir, 'home'), CCCC_WEB_PORT: String(port) };
  let child: ChildProcess | undefined;
  try {
    await timed('git', ['clone', '--quiet', '--no-hardlinks', repo, clone], dir);
    execFileSync('git', ['checkout', '--quiet', head], { cwd: clone });
    const install = await timed('npm', ['install'], clone, runEnv);
    const start = await firstStart(clone, runEnv, port);
    child = start.child;
    return { install, build: start.build, answer: start.answer, total: install + start.build + start.answer, clone };
  } finally {
    if (child) stopAll(child, clone, runEnv);
  }
}

/**
 * Where prebuild-install looks for this machine's better-sqlite3 binary (the postinstall's native
 * build cache, tools/cache-native-builds.mjs), computed by prebuild-install itself.
 */
function cachedSqlitePrebuild(repo: string): string {
  const requireFromRoot = createRequire(join(repo, 'package.json'));
  const sqliteDir = dirname(requireFromRoot.resolve('better-sqlite3/package.json'));
  const requireFromPkg = createRequire(join(sqliteDir, 'package.json'));
  const prebuildDir = dirname(requireFromPkg.resolve('prebuild-install/package.json'));
  const pkg = requireFromPkg('./package.json');
  const rc = requireFromPkg(join(prebuildDir, 'rc.js'))(pkg);
  const util = requireFromPkg(join(prebuildDir, 'util.js'));
  return util.cachedPrebuild(util.getDownloadUrl({ ...rc, pkg }));
}

export async function benchColdStart(): Promise<void> {
  const here = dirname(fileURLToPath(import.meta.url));
  const repo = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: here, encoding: 'utf8' }).trim();
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
  // A newcomer's shell: no CCCC_BUILD_DTS or CCCC_ACTOR_ID inherited from whoever runs the bench.
  const { CCCC_BUILD_DTS: _dts, CCCC_ACTOR_ID: _actor, ...inherited } = process.env;
  const env: NodeJS.ProcessEnv = { ...inherited, npm_config_prefer_offline: 'true' };
  // First start on this machine: the native build cache is moved aside, so SQLite compiles.
  const cached = cachedSqlitePrebuild(repo);
  const aside = `${cached}.bench-aside`;
  const hadCache = existsSync(cached);
  if (hadCache) renameSync(cached, aside);
  const dirs: string[] = [];
  const fresh = () => {
    const d = mkdtempSync(join(tmpdir(), 'cccc-cold-start-'));
    dirs.push(d);
    return d;
  };
  try {
    const first = await coldStart(repo, head, env, fresh());
    const compiledAndCached = existsSync(cached);
    // Every later fresh clone on this machine: the first install's postinstall cached the build.
    const later = await coldStart(repo, head, env, fresh());
    // The floor: the same tree's `npm ci`, and SQLite's C build alone, both compiling from source.
    const floorEnv = { ...env, npm_config_build_from_source: 'true' };
    rmSync(join(later.clone, 'node_modules'), { recursive: true, force: true });
    const ciS = await timed('npm', ['ci'], later.clone, floorEnv);
    const sqliteS = await timed('npm', ['rebuild', 'better-sqlite3'], later.clone, floorEnv);
    const s = (v: number) => `${v.toFixed(1)} s`;
    const verdict = (t: number) => `target < ${TARGET_S} s: ${t < TARGET_S ? 'met' : 'missed'}`;
    printTable(`cold start: fresh clone of ${head.slice(0, 8)} → npm install → npm start → Web answers (warm npm cache)`, [
      { phase: 'first on this machine: npm install', time: s(first.install), note: 'SQLite compiled from source' },
      { phase: 'first on this machine: npm start, build', time: s(first.build), note: 'Nx, no type declarations, empty Nx cache' },
      { phase: 'first on this machine: Web answers', time: s(first.answer), note: 'daemon spawned + Web listening' },
      { phase: 'first on this machine: total', time: s(first.total), note: verdict(first.total) },
      { phase: 'later clone: npm install', time: s(later.install), note: compiledAndCached ? 'SQLite unpacked from the native build cache' : 'native build cache NOT written' },
      { phase: 'later clone: npm start, build', time: s(later.build), note: '' },
      { phase: 'later clone: Web answers', time: s(later.answer), note: '' },
      { phase: 'later clone: total', time: s(later.total), note: verdict(later.total) },
      { phase: 'baseline: npm ci, compiling', time: s(ciS), note: `first install / npm ci = ${(first.install / ciS).toFixed(2)}` },
      { phase: 'baseline: npm rebuild better-sqlite3', time: s(sqliteS), note: `its C build alone: ${((sqliteS / first.total) * 100).toFixed(0)}% of the first total` },
    ]);
  } finally {
    if (hadCache && !existsSync(cached)) renameSync(aside, cached);
    else rmSync(aside, { force: true });
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

/** Ctrl-C to `npm start` (its process group), then stop the daemon it started. */
function stopAll(child: ChildProcess, clone: string, env: NodeJS.ProcessEnv): void {
  if (child.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGINT');
    } catch {
      // gone
    }
  }
  try {
    execFileSync(process.execPath, [join(clone, 'apps', 'cli', 'bin', 'cccc.js'), 'daemon', 'stop'], { env, stdio: 'ignore' });
  } catch {
    // never started, or already stopped
  }
}
