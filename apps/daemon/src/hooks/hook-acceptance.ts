import { errorFields, type Logger } from '../log.js';
import type { RuntimeRegistry } from '../runtime/runtime-registry.js';
import type { DeliveryConfirmations } from './delivery-confirmations.js';
import type { HookAccepted } from './hook-deps.js';
import type { WorkingStateService } from './working-state-service.js';

/** Hook events that end an agent's turn. */
const TURN_ENDS = new Set(['Stop', 'StopFailure', 'SessionEnd']);

export interface HookAcceptanceDeps {
  readonly runtimes: RuntimeRegistry;
  readonly confirmations: Pick<DeliveryConfirmations, 'promptSubmitted' | 'turnEnded'>;
  readonly workingState: Pick<WorkingStateService, 'refreshGroup'>;
  readonly logger: Logger;
}

/**
 * What follows an accepted hook event: a UserPromptSubmit may confirm the deliveries its prompt's
 * line marks name (read for the match, never stored), and the actor's working state is derived again
 * now rather than at the next tick.
 */
export function hookAcceptance(deps: HookAcceptanceDeps): (accepted: HookAccepted) => void {
  return ({ groupId, actorId, runtime, event, marks, firedAtMs }) => {
    if (event === 'UserPromptSubmit') {
      const session = deps.runtimes.get(groupId, actorId)?.session;
      deps.confirmations.promptSubmitted(groupId, actorId, session, `${runtime}_hook_UserPromptSubmit`, marks, firedAtMs);
    }
    if (TURN_ENDS.has(event)) deps.confirmations.turnEnded(groupId, actorId, deps.runtimes.get(groupId, actorId)?.session);
    deps.workingState.refreshGroup(groupId, actorId).catch((error) => {
      deps.logger.log('warn', 'working state derivation failed', { group_id: groupId, ...errorFields(error) });
    });
  };
}
