import type { DeliveryConfirmations } from '../hooks/delivery-confirmations.js';
import type { SessionInputDrain } from './actor-runtime-service.js';

/** After a prompt was taken up, how long a stop waits at most for the turn it started to end. */
export const TAKEN_UP_TURN_MAX_MS = 3_000;

/**
 * What a stop waits for before it ends a session (issue 19): the submits begun into it settle,
 * each by its prompt hook or otherwise, within `maxMs`. A prompt hook answers before the agent
 * sends the prompt on to its model, so after one was taken up the stop also waits for that turn's
 * end (its Stop hook; at most TAKEN_UP_TURN_MAX_MS, by when the prompt has long gone to the
 * model), or a restart could kill the agent between the two.
 */
export function sessionInputDrain(confirmations: Pick<DeliveryConfirmations, 'settled' | 'turnTakenUp' | 'sessionEnded'>, maxMs: number): SessionInputDrain {
  return {
    settled: async (groupId, actorId, session) => {
      const how = await confirmations.settled(groupId, actorId, session, maxMs);
      if (how === 'taken_up') await confirmations.turnTakenUp(groupId, actorId, session, TAKEN_UP_TURN_MAX_MS);
    },
    ended: (groupId, actorId, session) => confirmations.sessionEnded(groupId, actorId, session),
  };
}
