import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

// The tailscale provider drives the `tailscale` CLI. Command lines are built here (pure, unit
// tested); running them has a deadline (30 s by default, §8.17) and bounded captured output.

export const TAILSCALE_DEADLINE_MS = 30_000;
export const MAX_CAPTURE_BYTES = 16 * 1024;

export type TailscaleMode = 'serve' | 'funnel';

/** Proxy the loopback Web port over the tailnet (serve) or the public internet (funnel). */
export function tailscaleStartArgs(mode: TailscaleMode, webPort: number): string[] {
  return [mode, '--bg', '--yes', '--https=443', `http://127.0.0.1:${webPort}`];
}

export function tailscaleStopArgs(mode: TailscaleMode): string[] {
  return [mode, '--https=443', 'off'];
}

export function tailscaleStatusArgs(): string[] {
  return ['status', '--json'];
}

/** The first executable `tailscale` on PATH, or null when it is not installed. */
export function findTailscale(env: NodeJS.ProcessEnv = process.env, name = 'tailscale'): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export interface CommandOutcome {
  readonly ok: boolean;
  readonly exit_code: number | null;
  readonly timed_out: boolean;
  /** The executable could not be spawned at all (ENOENT/EACCES). */
  readonly missing: boolean;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run a command with a deadline (SIGKILL on expiry) keeping at most MAX_CAPTURE_BYTES of each stream. */
export function runBounded(bin: string, args: readonly string[], timeoutMs = TAILSCALE_DEADLINE_MS): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const keep = (have: string, chunk: Buffer) => (have.length >= MAX_CAPTURE_BYTES ? have : (have + chunk.toString('utf8')).slice(0, MAX_CAPTURE_BYTES));
    child.stdout.on('data', (c: Buffer) => (stdout = keep(stdout, c)));
    child.stderr.on('data', (c: Buffer) => (stderr = keep(stderr, c)));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    const finish = (outcome: CommandOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    child.on('error', (err: NodeJS.ErrnoException) => {
      finish({ ok: false, exit_code: null, timed_out: false, missing: err.code === 'ENOENT' || err.code === 'EACCES', stdout, stderr: stderr || err.message });
    });
    child.on('close', (code) => finish({ ok: !timedOut && code === 0, exit_code: code, timed_out: timedOut, missing: false, stdout, stderr }));
  });
}

/** BackendState and this node's DNS name from `tailscale status --json`. */
export function parseTailscaleStatus(stdout: string): { backend_state: string | null; dns_name: string | null } {
  try {
    const doc = JSON.parse(stdout) as { BackendState?: unknown; Self?: { DNSName?: unknown } };
    const dns = typeof doc.Self?.DNSName === 'string' ? doc.Self.DNSName.replace(/\.$/, '') : null;
    return { backend_state: typeof doc.BackendState === 'string' ? doc.BackendState : null, dns_name: dns || null };
  } catch {
    return { backend_state: null, dns_name: null };
  }
}
