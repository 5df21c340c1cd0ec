import { constants } from 'node:os';
import { IpcError, type ActorStartProblem } from '@cccc/ipc-protocol';
import { terminalTail, type ManagedExit, type PtyExit, type TerminalSession } from '@cccc/pty-runtime';

/** Lines of an early exit's output kept for the report. */
export const OUTPUT_TAIL_LINES = 20;

/** PtySpawnError codes (carried as `details.reason` of `runtime_start_failed`) as problem codes. */
const SPAWN_PROBLEM: Record<string, string> = {
  command_not_found: 'executable_not_found',
  cwd_missing: 'missing_project_root',
  empty_command: 'empty_command',
  spawn_failed: 'spawn_failed',
};

/** The problem of a start that threw before or at spawn (launch errors, missing executable). */
export function problemOfStartError(error: unknown): ActorStartProblem {
  if (error instanceof IpcError) {
    const reason = typeof error.details['reason'] === 'string' ? error.details['reason'] : undefined;
    const code = error.code === 'runtime_start_failed' ? (SPAWN_PROBLEM[reason ?? ''] ?? 'spawn_failed') : error.code;
    return { code, message: error.message };
  }
  return { code: 'spawn_failed', message: error instanceof Error ? error.message : String(error) };
}

/** Resolves with the exit if the session ends within `windowMs`, else undefined (also on abort). */
export function waitEarlyExit(session: TerminalSession, windowMs: number, signal: AbortSignal): Promise<PtyExit | undefined> {
  if (session.exit) return Promise.resolve(session.exit);
  if (windowMs <= 0 || signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const done = (exit: PtyExit | undefined) => {
      clearTimeout(timer);
      sub[Symbol.dispose]();
      signal.removeEventListener('abort', onAbort);
      resolve(exit);
    };
    const onAbort = () => done(undefined);
    const timer = setTimeout(() => done(undefined), windowMs);
    const sub = session.onExit((exit) => done(exit));
    signal.addEventListener('abort', onAbort);
  });
}

/** Resolves with the provider's exit if it comes within `windowMs`, else undefined (also on abort). */
export function waitProviderExit(exit: Promise<ManagedExit>, windowMs: number, signal: AbortSignal): Promise<ManagedExit | undefined> {
  if (windowMs <= 0 || signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const done = (value: ManagedExit | undefined) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onAbort = () => done(undefined);
    const timer = setTimeout(() => done(undefined), windowMs);
    signal.addEventListener('abort', onAbort);
    void exit.then(done);
  });
}

/**
 * A managed actor's provider (`provider`, e.g. its codex app-server) ended within the window:
 * the start failed, whatever its attached TUI did. The tail is the TUI's screen (what a person saw).
 */
export async function providerExitProblem(tui: TerminalSession | undefined, provider: string, exit: ManagedExit, windowMs: number): Promise<ActorStartProblem> {
  const status =
    exit.code !== null && exit.signal === null ? `exited with code ${exit.code}` : exit.signal !== null ? `was killed by ${exit.signal}` : `ended (${exit.reason})`;
  return {
    code: 'exited_early',
    message: `its ${provider} ${status} within ${windowMs / 1000} s of starting`,
    exit_code: exit.code,
    signal: exit.signal,
    output_tail: tui ? await outputTail(tui) : [],
  };
}

export function signalName(signal: number | null): string | null {
  if (signal === null) return null;
  const name = Object.entries(constants.signals).find(([, n]) => n === signal)?.[0];
  return name ?? `signal ${signal}`;
}

/** An exit within the window: code, signal and the last lines of the agent's screen. */
export async function earlyExitProblem(session: TerminalSession, exit: PtyExit, windowMs: number): Promise<ActorStartProblem> {
  const signal = signalName(exit.signal);
  const status = exit.exitCode !== null && signal === null ? `exited with code ${exit.exitCode}` : `was killed by ${signal ?? 'a signal'}`;
  // The message stays free of the agent's output: it is recorded in the ledger; the tail is not.
  return {
    code: 'exited_early',
    message: `${status} within ${windowMs / 1000} s of starting`,
    exit_code: exit.exitCode,
    signal,
    output_tail: await outputTail(session),
  };
}

async function outputTail(session: TerminalSession): Promise<string[]> {
  try {
    const { text } = await terminalTail(session, { maxChars: 4000 });
    return text.split('\n').filter((l) => l.trim() !== '').slice(-OUTPUT_TAIL_LINES);
  } catch {
    return [];
  }
}

/** `start_error` (the reference's one-line string) and `start_failure` of a start that did not run. */
export function failureFields(problem: ActorStartProblem): { start_error: string; start_failure: ActorStartProblem } {
  return { start_error: `${problem.code}: ${problem.message}`, start_failure: problem };
}
