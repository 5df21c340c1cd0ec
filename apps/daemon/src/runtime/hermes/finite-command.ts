import { spawn } from 'node:child_process';

// A runtime configuration/check helper run as a finite command (§8.4): input, both output
// streams and exit share one deadline; the command runs as its own process group, which is
// killed on timeout and after exit (anything it left behind); each stream is captured up to
// 2,000,000 bytes, and more is an explicit error, never partial evidence.

export const FINITE_OUTPUT_LIMIT = 2_000_000;

export type FiniteOutcome =
  | { readonly ok: true; readonly returncode: number; readonly stdout: string; readonly stderr: string }
  | { readonly ok: false; readonly code: 'timeout' | 'output_too_large' | 'spawn_failed' | 'signalled'; readonly message: string };

export function runFinite(argv: readonly string[], options: { cwd?: string; env: NodeJS.ProcessEnv; input?: string; timeoutMs: number; limit?: number }): Promise<FiniteOutcome> {
  const limit = options.limit ?? FINITE_OUTPUT_LIMIT;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: FiniteOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      killGroup(child.pid);
      resolve(outcome);
    };
    const child = spawn(argv[0]!, argv.slice(1), { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    const timer = setTimeout(() => finish({ ok: false, code: 'timeout', message: `${argv[0]} did not finish within ${options.timeoutMs} ms` }), options.timeoutMs);
    child.on('error', (e) => finish({ ok: false, code: 'spawn_failed', message: `${argv[0]} could not be started: ${(e as NodeJS.ErrnoException).code ?? e.message}` }));
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > limit) finish({ ok: false, code: 'output_too_large', message: `${argv[0]} wrote more than ${limit} bytes to stdout` });
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      errBytes += chunk.length;
      if (errBytes > limit) finish({ ok: false, code: 'output_too_large', message: `${argv[0]} wrote more than ${limit} bytes to stderr` });
      else err.push(chunk);
    });
    child.stdin.on('error', () => undefined); // a command that exits without reading its input
    child.stdin.end(options.input ?? '');
    child.on('close', (code, signal) => {
      if (code === null) finish({ ok: false, code: 'signalled', message: `${argv[0]} ended by ${signal ?? 'a signal'}` });
      else finish({ ok: true, returncode: code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
