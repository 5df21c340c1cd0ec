import './terminal.css';
import { useEffect, useRef, useState } from 'react';
import { exitDetail } from '../actors/actor-exits';
import { useGroupLive } from '../group/GroupLive';
import { prefersViewer } from './prefers-viewer';
import type { TermMode, TermSession, TermStatus } from './term-session';
import { terminalStateLabel } from './terminal-state';
import { useT } from '../i18n/I18nProvider';

/**
 * One actor's terminal tab. xterm.js and the session glue load on first use (a separate chunk),
 * so the chat-only app never pays for the terminal. A phone or touch screen attaches view-only
 * (it never resizes a terminal it does not control) until the user takes control.
 */
export function TerminalView({ groupId, actorId, onClose }: { groupId: string; actorId: string; onClose: () => void }) {
  const t = useT();
  const host = useRef<HTMLDivElement>(null);
  const session = useRef<TermSession | null>(null);
  const [status, setStatus] = useState<TermStatus | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [viewOnlyHere] = useState(prefersViewer);
  const live = useGroupLive();
  const actor = live.actors?.find((a) => a.id === actorId);
  const exit = live.exits.get(actorId);

  useEffect(() => {
    let cancelled = false;
    let created: TermSession | null = null;
    import('./term-session').then(
      ({ TermSession }) => {
        if (cancelled || !host.current) return;
        created = new TermSession(host.current, groupId, actorId, setStatus);
        session.current = created;
        created.attach(viewOnlyHere ? 'viewer' : 'control');
        if (!viewOnlyHere) created.focus();
      },
      (e: unknown) => setLoadError(String(e)),
    );
    return () => {
      cancelled = true;
      created?.dispose();
      session.current = null;
    };
  }, [groupId, actorId, viewOnlyHere]);

  // A relaunched actor: a closed tab attaches to the new session at once (not at its next retry,
  // nor never once its retries ran out). Only on the change to running, so a refusal cannot loop.
  const running = actor?.running ?? null;
  const wasRunning = useRef(running);
  useEffect(() => {
    const before = wasRunning.current;
    wasRunning.current = running;
    if (running && before === false && status?.phase === 'closed') session.current?.attach(status.mode);
  }, [running, status?.phase, status?.mode]);

  const reattach = (mode: TermMode, takeover = false) => {
    session.current?.attach(mode, takeover);
    session.current?.focus();
  };
  const readOnly = status?.phase === 'open' && !status.writable;
  const label = terminalStateLabel(status, { running, exit: exit ? exitDetail(exit, t) : null }, t);

  return (
    <section className="terminal-view" aria-label={t('term.of', { actor: actorId })}>
      <header className="terminal-bar">
        <strong className="terminal-title">{actor?.title || actorId}</strong>
        <span className="terminal-state" data-phase={status?.phase ?? 'loading'} data-mode={status?.mode} data-writable={status?.writable ? 'true' : 'false'} data-connection={label.connection}>
          {label.text}
        </span>
        {status?.mode === 'viewer' || readOnly ? (
          <button onClick={() => reattach('control', true)}>{t('term.takeControl')}</button>
        ) : (
          <button onClick={() => reattach('viewer')} disabled={status?.phase !== 'open'}>
            {t('term.viewOnly')}
          </button>
        )}
        {status?.phase === 'closed' && running !== false && <button onClick={() => reattach(status.mode)}>{t('term.reconnect')}</button>}
        <span className="terminal-scroll">
          <button aria-label={t('term.scrollUp')} onClick={() => session.current?.scrollPages(-1)}>↑</button>
          <button aria-label={t('term.scrollDown')} onClick={() => session.current?.scrollPages(1)}>↓</button>
        </span>
        <button className="terminal-close" aria-label={t('term.close')} onClick={onClose}>
          ×
        </button>
      </header>
      {viewOnlyHere && status?.mode === 'viewer' && status.phase === 'open' && (
        <p className="terminal-hint">{t('term.viewOnlyHint')}</p>
      )}
      {(status?.message || loadError) && (
        <p className="terminal-message" role="status">
          {loadError ?? status?.message}
        </p>
      )}
      <div className="terminal-host" ref={host} onClick={() => session.current?.focus()} />
    </section>
  );
}
