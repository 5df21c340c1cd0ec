import { randomBytes } from 'node:crypto';
import { utcNowIso } from '@cccc/groups';
import { commitInterrupt } from '@cccc/hook-fence';
import type { TerminalSession } from '@cccc/pty-runtime';
import type { HookDeps } from './hook-deps.js';
import { hookActorLockKey } from './hook-files.js';
import { commitHookTransition } from './hook-transition.js';
import { sessionIdentity } from './session-identity.js';

const ESC = 0x1b;
const CTRL_C = 0x03;

/**
 * Input typed at an agent's terminal that interrupts its turn (REFERENCE_NOTES §5.3): a lone ESC
 * (a key press, not the start of an escape sequence) or a Ctrl-C. Claude ends a turn this way,
 * and rejects a permission prompt with Esc, without firing any hook.
 */
export function isInterruptInput(bytes: Uint8Array): boolean {
  return (bytes.length === 1 && bytes[0] === ESC) || bytes.includes(CTRL_C);
}

/**
 * Records an interrupt typed into a hooked session: its hook state becomes idle + interrupted and
 * its open child activity is closed, so a working state (or a permission wait that holds
 * delivery) that no hook will ever end does not outlive the turn. Only for the session the
 * daemon launched with hooks and whose launch record and hook state still name it; anything else
 * is left alone.
 */
export async function recordTerminalInterrupt(deps: HookDeps, groupId: string, actorId: string, session: TerminalSession): Promise<boolean> {
  const identity = sessionIdentity(session);
  if (!identity || session.exited) return false;
  return deps.groupLocks.run(hookActorLockKey(groupId, actorId), async () => {
    const record = await deps.hookChannel.launchRecord(groupId, actorId);
    if (!record?.hook_enabled || record.pid !== identity.pid || record.launch_token !== identity.launch_token || record.runtime !== identity.runtime) return false;
    const state = await deps.hookChannel.hookState(record.runtime, groupId, actorId);
    if (!state || state.launch_token !== identity.launch_token) return false;
    const result = await commitHookTransition(deps, { groupId, actorId, event: 'Interrupt' }, state, (entries) => {
      const change = commitInterrupt({ state, entries, now: new Date(), updatedAt: utcNowIso(), newId: () => randomBytes(16).toString('hex') });
      return change.changed ? { accepted: true, state: change.state, entries: change.entries } : { accepted: false, reason: 'no_open_session', state };
    });
    return result.accepted;
  });
}
