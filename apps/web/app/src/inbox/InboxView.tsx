import { useCallback, useEffect, useState } from 'react';
import { isEventOfKind } from '@cccc/ipc-protocol/browser';
import { api, type RouteResult } from '../api/client';
import { ApiError } from '../api/http';
import { useActors } from '../api/use-actors';
import { ACTOR_KINDS } from '../api/group-ledger-hub';
import { useLedgerStream } from '../api/use-ledger-stream';
import { chatFields } from '../chat/message';
import { MessageText } from '../chat/MessageText';
import { fullDate, relativeTime } from '../chat/time';
import { useI18n } from '../i18n/I18nProvider';

const INBOX_KINDS = ['chat.message', 'mail.read', ...ACTOR_KINDS];

type Peek = RouteResult<'inbox_peek'>;

/**
 * One actor's unread Mail (inbox_peek: does not move the cursor) and "mark read" (inbox_read:
 * consumes the unread prefix and appends mail.read). Follows the ledger so new Mail and reads by
 * the agent itself show up.
 */
export function InboxView({ groupId }: { groupId: string }) {
  const { t, locale } = useI18n();
  const { actors, reload: reloadActors } = useActors(groupId, true);
  const [actorId, setActorId] = useState<string | null>(null);
  const [peek, setPeek] = useState<Peek | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((t) => t + 1), []);
  const current = actorId ?? actors[0]?.id ?? null;

  useEffect(() => {
    if (!current) return;
    let live = true;
    api.inbox_peek(groupId, current, { limit: 200 }).then(
      (r) => {
        if (!live) return;
        setPeek(r);
        setError(null);
      },
      (e: Error) => live && setError(e instanceof ApiError ? `${e.code}: ${e.message}` : e.message),
    );
    return () => {
      live = false;
    };
  }, [groupId, current, tick]);

  useLedgerStream(groupId, INBOX_KINDS, (event) => {
    if (event.kind === 'mail.read' || (isEventOfKind(event, 'chat.message') && event.data.message_mode === 'mail')) {
      refresh();
      reloadActors();
    }
    if (event.kind.startsWith('actor.')) reloadActors();
  });

  const markRead = () => {
    if (!current) return;
    setBusy(true);
    api.inbox_read(groupId, current, { limit: 200 }).then(
      () => {
        setBusy(false);
        refresh();
        reloadActors();
      },
      (e: Error) => {
        setBusy(false);
        setError(e instanceof ApiError ? `${e.code}: ${e.message}` : e.message);
      },
    );
  };

  if (actors.length === 0) return <p className="empty">{t('inbox.noActors')}</p>;
  return (
    <section className="inbox" aria-label={t('app.view.inbox')}>
      <div className="inbox-bar">
        <label>
          {t('inbox.actor')}{' '}
          <select aria-label={t('inbox.actorSelect')} value={current ?? ''} onChange={(e) => setActorId(e.target.value)}>
            {actors.map((a) => (
              <option key={a.id} value={a.id}>
                {a.id}
                {a.unread_count ? ` (${a.unread_count})` : ''}
              </option>
            ))}
          </select>
        </label>
        <button onClick={refresh}>{t('inbox.refresh')}</button>
        <button onClick={markRead} disabled={busy || !peek || peek.messages.length === 0}>
          {t('inbox.markRead')}
        </button>
      </div>
      {error && <p className="form-error">{error}</p>}
      {peek && peek.messages.length === 0 ? (
        <p className="empty">{t('inbox.empty', { actor: current ?? '' })}</p>
      ) : (
        <ul className="inbox-list" aria-label={t('inbox.unread')}>
          {peek?.messages.map((e) => {
            const m = chatFields(e);
            return (
              <li key={e.id} className="msg" data-event-id={e.id}>
                <header className="msg-head">
                  <span className="msg-sender">{m.senderTitle ?? e.by}</span>
                  <span className="msg-to">→ {m.to.join(', ')}</span>
                  <span className="mode-chip" data-mode="mail">
                    {t('composer.mode.mail')}
                  </span>
                  <time className="msg-time" dateTime={e.ts} title={fullDate(e.ts, locale)}>
                    {relativeTime(e.ts, Date.now(), locale)}
                  </time>
                </header>
                {m.quote && <blockquote className="msg-quote">{m.quote}</blockquote>}
                <MessageText text={m.text} raw={false} />
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
