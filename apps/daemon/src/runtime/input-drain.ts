import type { TerminalSession } from '@cccc/pty-runtime';
import type { DeliveryConfirmations } from '../hooks/delivery-confirmations.js';
import type { SessionInputDrain } from './actor-runtime-service.js';

/** After a delivered prompt was taken up, the most a stop waits for the agent to go on with it. */
export const TAKEN_UP_MAX_MS = 3_000;
/** ...and the output pause that shows no turn runs any more (an agent at work redraws its spinner). */
export const TAKEN_UP_QUIET_MS = 300;
/** A prompt taken longer ago than this has long gone on: no wait for it. */
const RECENT_PROMPT_MS = 10_000;

/**
 * What a stop waits for before it ends a session (issue 19): the submits begun into it settle,
 * each by its prompt hook or otherwise, within `maxMs`. A prompt hook answers before the agent
 * sends the prompt on to its model, and a prompt typed into a running turn is queued (its hook
 * fires, the running turn's Stop follows, and only then its own turn starts). So when a delivered
 * prompt was taken up recently, the stop also waits, at most TAKEN_UP_MAX_MS, for a turn's end
 * and then for the agent's output to pause: a queued turn keeps its spinner going.
 */
export function sessionInputDrain(confirmations: Pick<DeliveryConfirmations, 'settled' | 'turnTakenUp' | 'sessionEnded'>, maxMs: number): SessionInputDrain {
  return {
    settled: async (groupId, actorId, session) => {
      await confirmations.settled(groupId, actorId, session, maxMs);
      const started = Date.now();
      const promptAt = await confirmations.turnTakenUp(groupId, actorId, session, TAKEN_UP_MAX_MS);
      if (promptAt === undefined || started - promptAt > RECENT_PROMPT_MS) return;
      await outputPause(session, TAKEN_UP_QUIET_MS, Math.max(0, TAKEN_UP_MAX_MS - (Date.now() - started)));
    },
    ended: (groupId, actorId, session) => confirmations.sessionEnded(groupId, actorId, session),
  };
}

/** Resolves once the session wrote nothing for `quietMs`, or after `maxMs`. */
function outputPause(session: TerminalSession, quietMs: number, maxMs: number): Promise<void> {
  return new Promise((resolve) => {
    let quiet = setTimeout(done, quietMs);
    const max = setTimeout(done, maxMs);
    const output = session.onOutput(() => {
      clearTimeout(quiet);
      quiet = setTimeout(done, quietMs);
    });
    function done(): void {
      clearTimeout(quiet);
      clearTimeout(max);
      output[Symbol.dispose]();
      resolve();
    }
  });
}
