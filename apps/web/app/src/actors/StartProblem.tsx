import type { ActorListEntry } from '../api/types';

/** How many of the agent's last output lines the card shows (the daemon keeps up to 20). */
const SHOWN_TAIL_LINES = 6;

/**
 * Why the actor's last start went wrong, on its card: a start that did not run (missing
 * executable, exit within the first seconds with its code and last output lines) while it is
 * stopped, or what a running actor runs without (a failed version probe: no hooks).
 */
export function StartProblem({ actor }: { actor: ActorListEntry }) {
  const failure = !actor.running ? actor.start_failure : undefined;
  const warning = actor.running ? actor.start_warning : undefined;
  const problem = failure ?? warning;
  if (!problem) return null;
  const tail = (problem.output_tail ?? []).slice(-SHOWN_TAIL_LINES);
  return (
    <div className="start-problem" data-kind={failure ? 'failure' : 'warning'} data-code={problem.code} role="status">
      <p>
        {/* The message already names the exit code or signal. */}
        <strong>{failure ? 'Did not start' : 'Started with a warning'}:</strong> {problem.message}
      </p>
      {tail.length > 0 && <pre aria-label={`last output of ${actor.id}`}>{tail.join('\n')}</pre>}
    </div>
  );
}
