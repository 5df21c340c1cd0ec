import type { TerminalSession } from '@cccc/pty-runtime';
import type { DeliveryConfirmations } from '../hooks/delivery-confirmations.js';
import type { SessionInputDrain } from './actor-runtime-service.js';

/** After a prompt was taken up: the agent's first output, then this long, at most TAKEN_UP_MAX_MS. */
export const TAKEN_UP_AFTER_OUTPUT_MS = 150;
export const TAKEN_UP_MAX_MS = 1_000;

/**
 * What a stop waits for before it ends a session (issue 19): the submits begun into it settle,
 * each by its prompt hook or otherwise, within `maxMs`. A prompt hook answers before the agent
 * sends the prompt on to its model, so after one was taken up the stop also waits for the
 * agent's first output after it (its turn starting; bounded), or a restart would kill it between
 * the two.
 */
export function sessionInputDrain(confirmations: Pick<DeliveryConfirmations, 'settled' | 'sessionEnded'>, maxMs: number): SessionInputDrain {
  return {
    settled: async (groupId, actorId, session) => {
      const how = await confirmations.settled(groupId, actorId, session, maxMs);
      if (how === 'taken_up') await turnStarted(session);
    },
    ended: (groupId, actorId, session) => confirmations.sessionEnded(groupId, actorId, session),
  };
}

function turnStarted(session: TerminalSession): Promise<void> {
  return new Promise((resolve) => {
    const timers: ReturnType<typeof setTimeout>[] = [];
    const output = session.onOutput(() => {
      output[Symbol.dispose]();
      timers.push(setTimeout(done, TAKEN_UP_AFTER_OUTPUT_MS));
    });
    timers.push(setTimeout(done, TAKEN_UP_MAX_MS));
    function done(): void {
      output[Symbol.dispose]();
      for (const t of timers) clearTimeout(t);
      resolve();
    }
  });
}
