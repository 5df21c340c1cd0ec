import { english, type Translate } from '../i18n/plain';
import type { TermStatus } from './term-session';

// The terminal tab's state line: is the stream connected, and if not, did the agent exit or did
// the connection drop. Pure (the session status and the actor's live facts in, words out).

export interface StateLabel {
  readonly connection: 'loading' | 'connecting' | 'connected' | 'exited' | 'not-running' | 'disconnected';
  readonly text: string;
}

type Status = Pick<TermStatus, 'phase' | 'mode' | 'writable' | 'cols' | 'rows'>;

/**
 * `running`: the actor list's word (null until known); `exit`: how it ended by itself (`code 130`,
 * already in the page's language), null when it did not. `t`: the page's translator.
 */
export function terminalStateLabel(status: Status | null, actor: { running: boolean | null; exit: string | null }, t: Translate = english): StateLabel {
  if (!status) return { connection: 'loading', text: t('term.state.loading') };
  if (status.phase === 'connecting') return { connection: 'connecting', text: t('term.state.connecting') };
  if (status.phase === 'open') {
    const role = t(status.mode === 'viewer' ? 'term.role.viewer' : status.writable ? 'term.role.control' : 'term.role.readOnly');
    return { connection: 'connected', text: t('term.state.connected', { role, cols: status.cols, rows: status.rows }) };
  }
  if (actor.running === false) {
    if (actor.exit === null) return { connection: 'not-running', text: t('term.state.notRunning') };
    return { connection: 'exited', text: actor.exit ? t('term.state.exitedHow', { how: actor.exit }) : t('term.state.exited') };
  }
  return { connection: 'disconnected', text: t('term.state.disconnected') };
}
