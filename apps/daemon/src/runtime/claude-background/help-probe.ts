import { execFile } from 'node:child_process';
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

// `claude --help` as the evidence of Agent View (the `--bg` flag and the `attach` / `agents`
// subcommands). It costs a process per start, so its output is kept per resolved executable and
// that file's identity (size, mtime): an upgrade in place changes the identity and is probed again.

const HELP_PROBE_TIMEOUT_MS = 3_000;
const HELP_OUTPUT_LIMIT = 256 * 1024;

/** The file `exe` runs as (PATH searched like execFile does), or undefined when none is found. */
export function resolveExecutable(exe: string, cwd: string, env: Readonly<Record<string, string>>): string | undefined {
  const candidates = exe.includes('/') ? [isAbsolute(exe) ? exe : resolve(cwd, exe)] : (env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, exe));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return realpathSync(candidate);
    } catch {
      // next PATH entry
    }
  }
  return undefined;
}

export class ClaudeHelpProbe {
  private readonly cache = new Map<string, string>();

  /** The `--help` output, or undefined when it could not be run (not cached: it may be transient). */
  async help(exe: string, cwd: string, env: Readonly<Record<string, string>>): Promise<string | undefined> {
    const resolved = resolveExecutable(exe, cwd, env);
    if (!resolved) return undefined;
    let key: string;
    try {
      const st = statSync(resolved);
      key = `${resolved}\0${st.size}\0${st.mtimeMs}`;
    } catch {
      return undefined;
    }
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const output = await runHelp(resolved, cwd, env);
    if (output !== undefined) this.cache.set(key, output);
    return output;
  }
}

function runHelp(exe: string, cwd: string, env: Readonly<Record<string, string>>): Promise<string | undefined> {
  return new Promise((done) => {
    execFile(exe, ['--help'], { cwd, env: env as NodeJS.ProcessEnv, timeout: HELP_PROBE_TIMEOUT_MS, maxBuffer: HELP_OUTPUT_LIMIT, killSignal: 'SIGKILL' }, (error, stdout) =>
      done(error ? undefined : String(stdout)),
    );
  });
}
