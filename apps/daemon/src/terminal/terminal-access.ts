import { effectiveRole, findActor, principalOf, type GroupDoc } from '@cccc/groups';
import { ErrorCodes, IpcError } from '@cccc/ipc-protocol';
import { canReadTranscript, type ActorTerminal, type TerminalSession, type TranscriptViewer } from '@cccc/pty-runtime';
import type { GroupDocCache } from '../kernel/group-cache.js';
import type { RuntimeRegistry } from '../runtime/runtime-registry.js';
import { daemonError, DaemonErrorCodes } from '../errors.js';

export interface TerminalDeps {
  readonly groups: GroupDocCache;
  readonly runtimes: RuntimeRegistry;
}

/** A live PTY terminal some principal may read (the §8.11 ops and term_attach start here). */
export interface TerminalTarget {
  readonly groupId: string;
  readonly actorId: string;
  readonly terminal: ActorTerminal;
  readonly session: TerminalSession;
}

export interface ResolveOptions {
  /** The code when no live terminal exists: term_attach says not_pty_actor, reads actor_not_running. */
  readonly notRunningCode?: 'actor_not_running' | 'not_pty_actor';
}

function viewerOf(group: GroupDoc, by: string): TranscriptViewer {
  if (by === 'user' || by === 'system') return { kind: 'user' };
  const role = effectiveRole(group.actors, by);
  if (!role) throw new IpcError(ErrorCodes.permissionDenied, `${by} is not an actor of this group`, { by });
  return { kind: 'actor', actorId: by, role };
}

/**
 * Order of refusals: group_not_found, actor_not_found, permission_denied (transcript visibility
 * `off|foreman|all`, default foreman; an actor reads its own), not_pty_actor for a non-PTY
 * runner, then actor_not_running / not_pty_actor when nothing runs.
 */
export function resolveTerminal(deps: TerminalDeps, groupId: string, actorId: string, by: string | undefined, options: ResolveOptions = {}): TerminalTarget {
  const group = deps.groups.get(groupId);
  const actor = findActor(group.actors, actorId);
  const principal = principalOf(by);
  const visibility = group.terminal_transcript?.visibility ?? 'foreman';
  if (!canReadTranscript(viewerOf(group, principal), actorId, visibility)) {
    throw new IpcError(ErrorCodes.permissionDenied, `permission denied: terminal transcript visibility is ${visibility}`, {
      action: 'actor.transcript_read',
      by: principal,
      target_actor_id: actorId,
    });
  }
  // A headless codex actor runs managed: its PTY holds the native TUI attached to its thread.
  if (actor.runner === 'headless' && actor.runtime !== 'codex') throw daemonError(DaemonErrorCodes.notPtyActor, `${actorId} does not run on the PTY runner`, { actor_id: actorId });
  const terminal = deps.runtimes.get(groupId, actorId);
  const session = terminal?.session;
  // §8.4 acp mode is pure headless ACP: without a live PTY (the native mode's) there is no terminal.
  if ((!session || session.exited) && actor.runtime_mode === 'acp') throw daemonError(DaemonErrorCodes.notPtyActor, `${actorId} runs headless ACP (no terminal)`, { actor_id: actorId });
  if (!terminal || !session || session.exited) {
    const code = options.notRunningCode ?? 'actor_not_running';
    throw new IpcError(code, `${actorId} has no running PTY session`, { actor_id: actorId });
  }
  return { groupId, actorId, terminal, session };
}
