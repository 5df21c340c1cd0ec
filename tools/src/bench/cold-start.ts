// cold-start: a newcomer's first hour, timed. From a fresh `git clone` of this checkout's HEAD
// into a temp dir: `npm install` (warm npm cache, offline preferred, as on a machine that has
// installed once), then `npm start` until the Web answers HTTP on its port. Each phase is
// reported with the 2-minute target beside the total, and the raw floor of this machine for the
// ratio: `npm ci` of the same tree, and better-sqlite3's C build alone (install compiles it from
// source here, prebuilds being unreachable). Takes minutes; never part of `npm test`.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printTable } from './stats.js';

const TARGET_S = 120;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

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

export async function benchColdStart(): Promise<void> {
  const here = dirname(fileURLToPath(import.meta.url));
  const repo = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: here, encoding: 'utf8' }).trim();
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
  const dir = mkdtempSync(join(tmpdir(), 'cccc-cold-start-'));
  const clone = join(dir, 'repo');
  const port = await freePort();
  // A newcomer's shell: no CCCC_BUILD_DTS or CCCC_ACTOR_ID inherited from whoever runs the bench.
  const { CCCC_BUILD_DTS: _dts, CCCC_ACTOR_ID: _actor, ...inherited } = process.env;
  const env: NodeJS.ProcessEnv = { ...inherited, CCCC_HOME: join(dir, 'home'), CCCC_WEB_PORT: String(port), npm_config_prefer_offline: 'true' };
  let child: ChildProcess | undefined;
  try {
    const cloneS = await timed('git', ['clone', '--quiet', '--no-hardlinks', repo, clone], dir);
    execFileSync('git', ['checkout', '--quiet', head], { cwd: clone });
    const installS = await timed('npm', ['install'], clone, env);
    const start = await firstStart(clone, env, port);
    child = start.child;
    const total = installS + start.build + start.answer;
    stopAll(child, clone, env);
    // The floor: the same install as `npm ci`, and the one C build it cannot skip.
    rmSync(join(clone, 'node_modules'), { recursive: true, force: true });
    const ciS = await timed('npm', ['ci'], clone, env);
    const sqliteS = await timed('npm', ['rebuild', 'better-sqlite3'], clone, env);
    const s = (v: number) => `${v.toFixed(1)} s`;
    printTable(`cold start: fresh clone of ${head.slice(0, 8)} → npm install → npm start → Web answers (warm npm cache)`, [
      { phase: 'git clone (not counted)', time: s(cloneS), note: '' },
      { phase: 'npm install', time: s(installS), note: `${((installS / total) * 100).toFixed(0)}% of the total` },
      { phase: 'npm start: build to run', time: s(start.build), note: 'Nx, no type declarations, empty Nx cache' },
      { phase: 'npm start: Web answers', time: s(start.answer), note: 'daemon spawned + Web listening' },
      { phase: 'total', time: s(total), note: `target < ${TARGET_S} s: ${total < TARGET_S ? 'met' : 'missed'}` },
      { phase: 'baseline: npm ci, same tree', time: s(ciS), note: `install / npm ci = ${(installS / ciS).toFixed(2)}` },
      { phase: 'baseline: npm rebuild better-sqlite3', time: s(sqliteS), note: 'its C build from source alone' },
    ]);
  } finally {
    if (child) stopAll(child, clone, env);
    rmSync(dir, { recursive: true, force: true });
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
