import type { ManagedWorkState } from '../runtime-adapter.js';
import type { ThreadStatus } from './generated/v2/ThreadStatus.js';

// Working state from the app-server's own notifications (pure; the session feeds it). Only
// events of our thread count; `thread/status/changed` is the authority, turn events fill in the
// active turn. notLoaded / systemError leave the state as it was.

export interface CodexStateCore {
  readonly state: ManagedWorkState;
  readonly activeTurnId: string | null;
  readonly reason: string;
}

export const INITIAL_CODEX_STATE: CodexStateCore = { state: 'starting', activeTurnId: null, reason: 'app_server_starting' };

function fromStatus(status: ThreadStatus): ManagedWorkState | undefined {
  switch (status.type) {
    case 'idle':
      return 'idle';
    case 'active':
      return status.activeFlags.some((f) => f === 'waitingOnApproval' || f === 'waitingOnUserInput') ? 'waiting' : 'working';
    default:
      return undefined;
  }
}

/** The next state after one notification, or the same object when it changes nothing. */
export function reduceCodexState(core: CodexStateCore, threadId: string, method: string, params: unknown): CodexStateCore {
  const p = (params ?? {}) as { threadId?: string; status?: ThreadStatus; turn?: { id?: string } };
  if (p.threadId !== threadId) return core;
  switch (method) {
    case 'thread/status/changed': {
      const next = p.status ? fromStatus(p.status) : undefined;
      if (!next) return core;
      return { state: next, activeTurnId: next === 'idle' ? null : core.activeTurnId, reason: `app_server_thread_${p.status!.type}` };
    }
    case 'turn/started':
      return { state: core.state === 'waiting' ? 'waiting' : 'working', activeTurnId: p.turn?.id ?? core.activeTurnId, reason: 'app_server_turn_started' };
    case 'turn/completed':
      if (p.turn?.id && core.activeTurnId && p.turn.id !== core.activeTurnId) return core;
      return { state: 'idle', activeTurnId: null, reason: 'app_server_turn_completed' };
    default:
      return core;
  }
}
