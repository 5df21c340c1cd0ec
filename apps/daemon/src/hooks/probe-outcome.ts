import type { ExecFileException } from 'node:child_process';
import type { ActorStartProblem } from '@cccc/ipc-protocol';

/** Lines of a failed probe's output kept for the report (the end is where the error is). */
const PROBE_TAIL_LINES = 10;

/** What a launch-time probe found: hooks can be injected, or not (and why, when it failed). */
export interface ProbeOutcome {
  readonly supported: boolean;
  /** Set when the probe itself failed (exit status, signal, timeout): a caveat worth reporting. */
  readonly problem?: ActorStartProblem;
}

/**
 * The start problem of a failed probe run by `execFile`, or undefined when the executable is
 * missing (the spawn then fails with `executable_not_found`, the report that matters).
 */
export function probeProblem(
  code: 'version_probe_failed' | 'hook_probe_failed',
  what: string,
  timeoutMs: number,
  error: ExecFileException,
  stdout: string,
  stderr: string,
): ActorStartProblem | undefined {
  if (error.code === 'ENOENT') return undefined;
  const output_tail = lastLines(`${stdout}\n${stderr}`, PROBE_TAIL_LINES);
  if (error.killed) {
    return { code, message: `\`${what}\` did not answer within ${timeoutMs / 1000} s; the actor runs without CCCC hooks`, exit_code: null, signal: error.signal ?? null, output_tail };
  }
  const exitCode = typeof error.code === 'number' ? error.code : null;
  const status = exitCode !== null ? `exited ${exitCode}` : error.signal ? `was killed by ${error.signal}` : `failed (${String(error.code ?? 'error')})`;
  // The message is recorded in the ledger, so the probe's output stays in output_tail only (an
  // execFile error's message quotes the command's stderr: only its code is named here).
  return { code, message: `\`${what}\` ${status}; the actor runs without CCCC hooks`, exit_code: exitCode, signal: error.signal ?? null, output_tail };
}

export function lastLines(text: string, max: number): string[] {
  const lines = text.split(/\r?\n/).map((l) => l.trimEnd()).filter((l) => l !== '');
  return lines.slice(-max);
}
