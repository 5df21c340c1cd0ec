import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn as spawnPty } from 'node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './free-port.js';
import { quickStartBlock, type QuickStartLine } from './readme-block.js';

// The README's "Using it" block, run line by line as a newcomer would: `npx --no-install cccc`,
// a fresh CCCC_HOME, a fresh working directory. The block is parsed from README.md itself, so
// the two cannot drift. Commands that never return are named below and nowhere else: any other
// line that has not returned within RETURN_TIMEOUT_MS fails the test instead of hanging it.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RETURN_TIMEOUT_MS = 120_000;

/** How the test runs a line that never returns, and what it checks once the block is done. */
interface LongRunning {
  readonly name: string;
  readonly match: RegExp;
  /** Started in the background; resolves once the command is ready for the next line. */
  start(line: QuickStartLine, ctx: Context): Promise<void>;
}

interface Context {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly port: number;
  /** Process groups started in the background, each stopped (Ctrl-C, then SIGKILL) at the end. */
  readonly background: Array<{ name: string; child: ChildProcess; output: () => string }>;
  termOutput: string;
}

const LONG_RUNNING: readonly LongRunning[] = [
  {
    name: 'bare cccc (daemon + Web, until Ctrl-C)',
    match: /^npx --no-install cccc$/,
    async start(line, ctx) {
      const bg = background(line, ctx, this.name);
      await until(async () => (await webAnswers(ctx.port)) || exited(bg.child, bg.output()), `the Web on port ${ctx.port}`);
    },
  },
  {
    name: 'tail -f (follows until Ctrl-C)',
    match: /^npx --no-install cccc tail -f$/,
    async start(line, ctx) {
      const bg = background(line, ctx, this.name);
      // Ready once the past events are printed: the group's message is among them.
      await until(() => bg.output().includes('plan the release') || exited(bg.child, bg.output()), 'tail -f to print the past events');
    },
  },
  {
    name: 'term (needs a terminal; detached with Ctrl-])',
    match: /^npx --no-install cccc term \S+$/,
    async start(line, ctx) {
      const pty = spawnPty('/bin/sh', ['-c', line.command], { cwd: ctx.cwd, env: ctx.env as Record<string, string>, cols: 100, rows: 30 });
      pty.onData((d) => (ctx.termOutput += d));
      const exit = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
      try {
        await until(() => ctx.termOutput.includes('fake-agent> '), "the agent's prompt in the attached terminal");
        pty.write('\x1d'); // Ctrl-]
        expect(await Promise.race([exit, sleep(30_000).then(() => 'still attached')])).toBe(0);
      } finally {
        pty.kill('SIGKILL');
      }
    },
  },
];

/** Lines marked `# optional` (a real agent CLI) are skipped: this machine need not have one. */
const isOptional = (line: QuickStartLine) => /^optional\b/.test(line.comment);

const lines = quickStartBlock(readFileSync(join(ROOT, 'README.md'), 'utf8'));
const ctx = { background: [], termOutput: '' } as unknown as Context;
const ran: Array<{ line: string; how: string }> = [];

beforeAll(async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'cccc-readme-'));
  // The working directory stands for "the root of this checkout": its node_modules is this
  // checkout's, so `npx --no-install cccc` and `npm root` resolve exactly as there, while
  // `cccc attach .` attaches a directory of its own.
  symlinkSync(join(ROOT, 'node_modules'), join(cwd, 'node_modules'));
  const { CCCC_ACTOR_ID: _a, CCCC_GROUP_ID: _g, ...inherited } = process.env;
  const port = await freePort();
  Object.assign(ctx, { cwd, port, env: { ...inherited, CCCC_HOME: join(cwd, '.cccc-home'), CCCC_WEB_PORT: String(port) } });
});

afterAll(async () => {
  for (const bg of ctx.background) await stop(bg.child);
  await shell('npx --no-install cccc daemon stop', ctx, 60_000).catch(() => undefined);
  rmSync(ctx.cwd, { recursive: true, force: true });
}, 120_000);

describe('README "Using it", verbatim', () => {
  it('names every long-running line of the block, each once', () => {
    for (const lr of LONG_RUNNING) expect(lines.filter((l) => lr.match.test(l.command)).map((l) => l.command), lr.name).toHaveLength(1);
    expect(lines.length).toBeGreaterThan(LONG_RUNNING.length);
  });

  it('runs every line in order from a fresh CCCC_HOME', async () => {
    for (const line of lines) {
      if (isOptional(line)) {
        ran.push({ line: line.text, how: 'skipped (optional)' });
        continue;
      }
      const long = LONG_RUNNING.find((lr) => lr.match.test(line.command));
      if (long) {
        await long.start(line, ctx);
        ran.push({ line: line.text, how: long.name });
        continue;
      }
      const result = await shell(line.command, ctx, RETURN_TIMEOUT_MS);
      expect(result.code, `${line.command}\n${result.output}`).toBe(0);
      ran.push({ line: line.text, how: 'returned 0' });
    }
    // What the block promises, seen from outside: the agents run and got the message.
    const list = JSON.parse((await shell('npx --no-install cccc actor list --json', ctx, 60_000)).output) as { actors: Array<{ id: string; running: boolean }> };
    expect(list.actors.filter((a) => a.running).map((a) => a.id)).toEqual(['lead', 'peer1']);
    expect(ctx.termOutput).toContain('[cccc] attached to peer1');
    // The start-up text names the Web, the log and what Ctrl-C does.
    const web = ctx.background.find((bg) => bg.name.startsWith('bare cccc'))!.output();
    expect(web).toContain(`CCCC is running. Web: http://127.0.0.1:${ctx.port}/`);
    expect(web).toContain(join(ctx.env.CCCC_HOME!, 'daemon', 'ccccd.log'));
    expect(web).toMatch(/Ctrl-C\s+stops this Web server only; the daemon and its agents keep running/);
    // Ctrl-C ends the follower and the Web; the daemon keeps running, as documented. Through
    // npx the status is npm's: it may leave by the SIGINT itself rather than exit 0.
    for (const bg of ctx.background.splice(0)) expect(await stop(bg.child), `${bg.name}\n${bg.output()}`).toMatch(/^(0|130|SIGINT)$/);
    expect((await shell('npx --no-install cccc daemon status', ctx, 60_000)).code).toBe(0);
    expect(await webAnswers(ctx.port)).toBe(false);
  }, 900_000);
});

/** Run a line to its end through /bin/sh (it may use `$(…)`), or fail after `timeoutMs`. */
function shell(command: string, c: Context, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd: c.cwd, env: c.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d));
    child.stderr!.on('data', (d: Buffer) => (output += d));
    const timer = setTimeout(() => {
      killGroup(child, 'SIGKILL');
      reject(new Error(`"${command}" did not return within ${timeoutMs} ms; a line that never returns must be named in LONG_RUNNING.\n${output}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

function background(line: QuickStartLine, c: Context, name: string) {
  // Its own process group, so Ctrl-C reaches sh, npx and cccc together, as in a terminal.
  const child = spawn('/bin/sh', ['-c', line.command], { cwd: c.cwd, env: c.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d));
  child.stderr!.on('data', (d: Buffer) => (out += d));
  const bg = { name, child, output: () => out };
  c.background.push(bg);
  return bg;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

/** Ctrl-C to the process group; SIGKILL after 20 s. Resolves with the exit code or signal. */
async function stop(child: ChildProcess): Promise<string> {
  const status = () => String(child.exitCode ?? child.signalCode);
  if (child.exitCode !== null || child.signalCode !== null) return status();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  killGroup(child, 'SIGINT');
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
  return status();
}

function exited(child: ChildProcess, output: string): boolean {
  if (child.exitCode !== null) throw new Error(`exited ${child.exitCode} before it was ready:\n${output}`);
  return false;
}

async function webAnswers(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
