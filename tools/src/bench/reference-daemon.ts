// The reference Python daemon (ChesterRa/cccc) as a bench baseline, opt-in: CCCC_BENCH_REFERENCE_SRC
// names a checkout of it (its root, or its `src` folder) on this machine; it runs from source in
// its own temp CCCC_HOME (`PYTHONPATH=src python3 -m cccc.daemon_main run`, which needs python3
// with pydantic 2 and PyYAML). Nothing of it is part of this repository.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rawCall, type RawEndpoint } from './raw-call.js';

export const REFERENCE_ENV = 'CCCC_BENCH_REFERENCE_SRC';

export interface ReferenceDaemon {
  readonly home: string;
  readonly endpoint: RawEndpoint;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** The PYTHONPATH that holds the reference's `cccc` package, or undefined. */
function referencePythonPath(): string | undefined {
  const given = process.env[REFERENCE_ENV]?.trim();
  if (!given) return undefined;
  for (const dir of [join(given, 'src'), given]) if (existsSync(join(dir, 'cccc', 'daemon_main.py'))) return dir;
  throw new Error(`${REFERENCE_ENV}=${given} holds no cccc/daemon_main.py (give the checkout's root or its src folder)`);
}

/** Why the reference rows are skipped, printed where they would be. */
export function referenceSkipNote(): string {
  return `reference daemon rows skipped: set ${REFERENCE_ENV} to a checkout of ChesterRa/cccc to measure them in the same run`;
}

/** Start the reference daemon, or return undefined when it is not configured. */
export async function startReferenceDaemon(): Promise<ReferenceDaemon | undefined> {
  const pythonPath = referencePythonPath();
  if (!pythonPath) return undefined;
  const home = mkdtempSync(join(tmpdir(), 'cccc-bench-ref-'));
  const child = spawn('python3', ['-m', 'cccc.daemon_main', 'run'], {
    env: { ...process.env, PYTHONPATH: pythonPath, CCCC_HOME: home },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const endpoint = { path: join(home, 'daemon', 'ccccd.sock') };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    rmSync(home, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the reference daemon exited with ${child.exitCode} at start: ${stderr.slice(-2000)}`);
    }
    const answer = existsSync(endpoint.path) ? await rawCall(endpoint, '{"v":1,"op":"ping","args":{}}\n').catch(() => '') : '';
    if (answer.includes('"ok": true') || answer.includes('"ok":true')) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the reference daemon did not answer ping within 30 s: ${stderr.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { home, endpoint, child, stop };
}
