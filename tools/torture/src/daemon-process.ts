import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { tryCall } from './wire.js';

const CLI = createRequire(import.meta.url).resolve('@cccc/cli/bin/cccc.js');

/** Every daemon still running, so an interrupted run can kill them all (`killEverything`). */
const live = new Set<ChildProcess>();

/** SIGKILL every process group this run started and has not seen exit (exit / signal handlers). */
export function killEverything(): void {
  for (const child of live) killGroup(child.pid!, 'SIGKILL');
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** The environment a torture daemon starts from: ours, minus any CCCC_* setting of the caller. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('CCCC_')) env[k] = v;
  return env;
}

/**
 * A real daemon: `node <cli> daemon run` in its own process group (detached), so kill -9 hits
 * it the way a crash would and nothing it spawned in that group outlives the family.
 */
export class TortureDaemon implements AsyncDisposable {
  private exited: Promise<void>;
  private hasExited = false;

  private constructor(readonly home: string, private readonly child: ChildProcess) {
    live.add(child);
    this.exited = once(child, 'exit').then(() => {
      this.hasExited = true;
      live.delete(child);
    });
  }

  static async start(home: string, output: string, env: Record<string, string> = {}, timeoutMs = 30_000): Promise<TortureDaemon> {
    const out = openSync(output, 'a', 0o600);
    const child = spawn(process.execPath, [CLI, 'daemon', 'run'], {
      detached: true,
      // Relative paths in hostile requests resolve inside the sandbox, never in the checkout.
      cwd: dirname(home),
      stdio: ['ignore', out, out],
      env: { ...cleanEnv(), ...env, CCCC_HOME: home },
    });
    closeSync(out);
    const daemon = new TortureDaemon(home, child);
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (daemon.hasExited) throw new Error(`daemon exited during start: ${tail(output)}`);
      const ping = await tryCall(daemon.sock, 'ping', {}, 1000);
      if (ping?.ok && (ping.result as { pid?: number }).pid === child.pid) return daemon;
      await sleep(50);
    }
    await daemon.kill9();
    throw new Error(`daemon did not answer ping within ${timeoutMs} ms: ${tail(output)}`);
  }

  get pid(): number {
    return this.child.pid!;
  }

  get sock(): string {
    return join(this.home, 'daemon', 'ccccd.sock');
  }

  get running(): boolean {
    return !this.hasExited;
  }

  /** VmRSS of the daemon process, in bytes. */
  rssBytes(): number {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    if (!kb) throw new Error(`no VmRSS for pid ${this.pid}`);
    return Number(kb) * 1024;
  }

  /** A crash: SIGKILL to the whole process group, then wait for the exit. */
  async kill9(): Promise<void> {
    if (this.hasExited) return;
    killGroup(this.pid, 'SIGKILL');
    await this.exited;
  }

  /** SIGTERM (the daemon stops its actors), SIGKILL after `graceMs`, then any stray actor. */
  async stop(graceMs = 8000): Promise<void> {
    if (!this.hasExited) {
      killGroup(this.pid, 'SIGTERM');
      const timer = setTimeout(() => killGroup(this.pid, 'SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    const strays = reapStrays(this.home);
    // Actors orphaned by a kill -9 (own sessions, outside the daemon's group): said, not hidden.
    if (strays.length > 0) process.stdout.write(`   # killed ${strays.length} process(es) left by a daemon of ${this.home}: ${strays.join(', ')}\n`);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }
}

/**
 * Actors run in their own sessions (node-pty), outside the daemon's process group: after a
 * kill -9 they are orphans. Every process whose environment names this CCCC_HOME is one this
 * run started (through its daemon), and is killed by pid.
 */
export function reapStrays(home: string): number[] {
  const mark = Buffer.from(`CCCC_HOME=${home}\0`);
  const killed: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${entry}/environ`);
    } catch {
      continue;
    }
    if (environ.includes(mark)) {
      try {
        process.kill(Number(entry), 'SIGKILL');
        killed.push(Number(entry));
      } catch {
        // exited meanwhile
      }
    }
  }
  return killed;
}

function tail(path: string): string {
  try {
    return readFileSync(path, 'utf8').slice(-800).trim();
  } catch {
    return '(no output)';
  }
}
