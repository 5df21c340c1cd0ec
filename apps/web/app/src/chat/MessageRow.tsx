import { memo } from 'react';
import { routeUrl } from '../api/client';
import type { LedgerEvent, RecipientStatus } from '../api/types';
import { chatFields, modeLabel, shortTime, statusLabels } from './message';

/** A blob path `state/blobs/<sha256>_<name>` is served by name under the group. */
function blobHref(groupId: string, path: string): string {
  const name = path.split('/').pop() ?? path;
  return routeUrl('blob', groupId, name);
}

function formatBytes(n: number | undefined): string {
  if (n === undefined) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

interface Props {
  readonly groupId: string;
  readonly event: LedgerEvent;
  readonly statuses: Record<string, RecipientStatus> | undefined;
  readonly onReply: (event: LedgerEvent) => void;
}

/** One chat message: sender → recipients, mode chip, quote, text, attachments, per-recipient status. */
export const MessageRow = memo(function MessageRow({ groupId, event, statuses, onReply }: Props) {
  const m = chatFields(event);
  const recipients = Object.entries(statuses ?? {});
  return (
    <article className="msg" data-event-id={event.id} data-mode={m.mode ?? 'normal'} data-by={event.by}>
      <header className="msg-head">
        <span className="msg-sender" data-user={event.by === 'user' ? 'true' : undefined}>
          {m.senderTitle ?? event.by}
        </span>
        <span className="msg-to">→ {m.to.length > 0 ? m.to.join(', ') : 'default'}</span>
        <span className="mode-chip" data-mode={m.mode ?? 'normal'}>
          {modeLabel(m.mode)}
        </span>
        <time className="msg-time" dateTime={event.ts} title={event.ts}>
          {shortTime(event.ts)}
        </time>
        <button className="msg-reply" aria-label={`Reply to ${event.id}`} onClick={() => onReply(event)}>
          Reply
        </button>
      </header>
      {m.replyTo && (
        <blockquote className="msg-quote" data-reply-to={m.replyTo}>
          {m.quote ?? `reply to ${m.replyTo.slice(0, 8)}`}
        </blockquote>
      )}
      {m.text && <div className="msg-text">{m.text}</div>}
      {m.attachments.length > 0 && (
        <ul className="msg-attachments">
          {m.attachments.map((a) => (
            <li key={a.path}>
              <span className="muted">{a.kind ?? 'file'}:</span>{' '}
              <a href={blobHref(groupId, a.path)} target="_blank" rel="noreferrer">
                {a.title ?? a.path.split('/').pop()}
              </a>{' '}
              <span className="muted">{formatBytes(a.bytes)}</span>
            </li>
          ))}
        </ul>
      )}
      {recipients.length > 0 && (
        <ul className="msg-status" aria-label="Recipient status">
          {recipients.map(([actor, s]) => (
            <li key={actor} data-actor={actor} data-delivery={s.delivery_state ?? 'none'} data-confirmation={s.delivery_confirmation ?? 'none'}>
              <span className="status-actor">{actor}</span>
              {statusLabels(s, m.mode).map((l) => (
                <span key={l.text} className="status-chip" data-tone={l.tone}>
                  {l.text}
                </span>
              ))}
            </li>
          ))}
        </ul>
      )}
    </article>
  );
});
