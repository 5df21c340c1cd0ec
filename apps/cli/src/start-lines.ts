// Zod-free (start-report.ts re-exports it): `reportError` (output.ts) prints a failed start's
// lines with it, in the full CLI and in the fast path of `cccc send|reply` alike.

/** How many output lines of a failed start the CLI shows (the daemon keeps up to 20). */
const SHOWN_TAIL_LINES = 8;

/** The fields of an `ActorStartProblem` the lines show. */
export interface StartProblemText {
  readonly code: string;
  readonly message: string;
  readonly output_tail?: readonly string[] | undefined;
}

/** One line for the problem, then the last lines the agent printed, indented. */
export function startProblemLines(actorId: string, problem: StartProblemText, label: 'not started' | 'warning'): string[] {
  // The message already names the exit code or signal.
  const head = `${label}: ${actorId}: ${problem.code}: ${problem.message}`;
  const tail = (problem.output_tail ?? []).slice(-SHOWN_TAIL_LINES).map((line) => `    | ${line}`);
  return [head, ...tail];
}
