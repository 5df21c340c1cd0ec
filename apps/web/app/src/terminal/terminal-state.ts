import type { TermStatus } from './term-session';

// The terminal tab's state line: is the stream connected, and if not, did the agent exit or did
// the connection drop. Pure (the session status and the actor's live facts in, words out).

export interface StateLabel {
  readonly connection: 'loading' | 'connecting' | 'connected' | 'exited' | 'not-running' | 'disconnected';
  readonly text: string;
}

type Status = Pick<TermStatus, 'phase' | 'mode' | 'writable' | 'cols' | 'rows'>;

/** `running`: the actor list's word (null until known); `exit`: how it ended by itself (`code 130`), null when it did not. */
export function terminalStateLabel(status: Status | null, actor: { running: boolean | null; exit: string | null }): StateLabel {
  if (!status) return { connection: 'loading', text: 'loading…' };
  if (status.phase === 'connecting') return { connection: 'connecting', text: 'connecting…' };
  if (status.phase === 'open') {
    const role = status.mode === 'viewer' ? 'view only · read-only' : status.writable ? 'control' : 'read-only (another writer)';
    return { connection: 'connected', text: `Connected · ${role} · ${status.cols}×${status.rows}` };
  }
  if (actor.running === false) return actor.exit !== null ? { connection: 'exited', text: actor.exit ? `Exited (${actor.exit})` : 'Exited' } : { connection: 'not-running', text: 'Not running' };
  return { connection: 'disconnected', text: 'Disconnected' };
}
