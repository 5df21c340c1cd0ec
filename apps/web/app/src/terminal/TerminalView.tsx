import './terminal.css';
import { useEffect, useRef, useState } from 'react';
import type { TermMode, TermSession, TermStatus } from './term-session';

/**
 * One actor's terminal tab. xterm.js and the session glue load on first use (a separate chunk),
 * so the chat-only app never pays for the terminal.
 */
export function TerminalView({ groupId, actorId, onClose }: { groupId: string; actorId: string; onClose: () => void }) {
  const host = useRef<HTMLDivElement>(null);
  const session = useRef<TermSession | null>(null);
  const [status, setStatus] = useState<TermStatus | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    let created: TermSession | null = null;
    import('./term-session').then(
      ({ TermSession }) => {
        if (cancelled || !host.current) return;
        created = new TermSession(host.current, groupId, actorId, setStatus);
        session.current = created;
        created.attach('control');
        created.focus();
      },
      (e: unknown) => setLoadError(String(e)),
    );
    return () => {
      cancelled = true;
      created?.dispose();
      session.current = null;
    };
  }, [groupId, actorId]);

  const reattach = (mode: TermMode, takeover = false) => {
    session.current?.attach(mode, takeover);
    session.current?.focus();
  };
  const readOnly = status?.phase === 'open' && !status.writable;

  return (
    <section className="terminal-view" aria-label={`Terminal of ${actorId}`}>
      <header className="terminal-bar">
        <strong className="terminal-title">{actorId}</strong>
        <span className="terminal-state" data-phase={status?.phase ?? 'loading'} data-mode={status?.mode} data-writable={status?.writable ? 'true' : 'false'}>
          {!status
            ? 'loading…'
            : status.phase === 'open'
              ? status.mode === 'viewer'
                ? 'viewer'
                : status.writable
                  ? 'control'
                  : 'read-only (another writer)'
              : status.phase}
          {status && status.phase === 'open' && ` · ${status.cols}×${status.rows}`}
        </span>
        {status?.mode === 'viewer' || readOnly ? (
          <button onClick={() => reattach('control', true)}>Take control</button>
        ) : (
          <button onClick={() => reattach('viewer')} disabled={status?.phase !== 'open'}>
            View only
          </button>
        )}
        {status?.phase === 'closed' && <button onClick={() => reattach(status.mode)}>Reconnect</button>}
        <span className="terminal-scroll">
          <button aria-label="Scroll up" onClick={() => session.current?.scrollPages(-1)}>↑</button>
          <button aria-label="Scroll down" onClick={() => session.current?.scrollPages(1)}>↓</button>
        </span>
        <button className="terminal-close" aria-label="Close terminal" onClick={onClose}>
          ×
        </button>
      </header>
      {(status?.message || loadError) && (
        <p className="terminal-message" role="status">
          {loadError ?? status?.message}
        </p>
      )}
      <div className="terminal-host" ref={host} onClick={() => session.current?.focus()} />
    </section>
  );
}
