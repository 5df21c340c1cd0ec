import { memo, useState } from 'react';
import type { ActorListEntry, LedgerEvent, RecipientStatus } from '../api/types';
import { Attachments } from './Attachments';
import { Avatar } from './Avatar';
import { chatFields, modeLabel } from './message';
import { MessageText } from './MessageText';
import { RecipientStatusList } from './RecipientStatusList';
import { senderOf } from './sender';
import { fullDate, relativeTime } from './time';
import { useI18n } from '../i18n/I18nProvider';

interface Props {
  readonly groupId: string;
  readonly event: LedgerEvent;
  readonly actor: ActorListEntry | undefined;
  readonly statuses: Record<string, RecipientStatus> | undefined;
  readonly now: number;
  readonly focused: boolean;
  readonly onReply: (event: LedgerEvent) => void;
  readonly onJumpTo: (eventId: string) => void;
}

/**
 * One message of the conversation: the user's on the right, agents' on the left with their
 * avatar, name, runtime and the foreman marker; recipients, mode chip, relative time (the date
 * on hover), the quote of the message it answers, the Markdown text (folded when long),
 * attachment previews and each recipient's status.
 */
export const MessageBubble = memo(function MessageBubble({ groupId, event, actor, statuses, now, focused, onReply, onJumpTo }: Props) {
  const { locale, t } = useI18n();
  const m = chatFields(event);
  const sender = senderOf(event.by, actor, { title: m.senderTitle, runtime: m.senderRuntime });
  const [raw, setRaw] = useState(false);
  return (
    <article
      className="msg"
      data-event-id={event.id}
      data-mode={m.mode ?? 'normal'}
      data-by={event.by}
      data-side={sender.isUser ? 'mine' : 'theirs'}
      data-focused={focused || undefined}
      aria-label={t('chat.messageFrom', { name: sender.name })}
    >
      <Avatar sender={sender} />
      <div className="msg-bubble">
        <header className="msg-head">
          <span className="msg-sender" data-user={sender.isUser || undefined} title={sender.id}>
            {sender.name}
          </span>
          {sender.foreman && (
            <span className="foreman-mark" title={t('chat.foremanHint')}>
              {t('chat.foreman')}
            </span>
          )}
          {sender.runtime && <span className="runtime-tag">{sender.runtime}</span>}
          <span className="msg-to" title={t('chat.recipients')}>
            <span className="muted">{t('chat.to')}</span>
            {(m.to.length > 0 ? m.to : ['default']).map((to) => (
              <span key={to} className="to-chip">
                {to}
              </span>
            ))}
          </span>
          <span className="mode-chip" data-mode={m.mode ?? 'normal'}>
            {modeLabel(m.mode, t)}
          </span>
          <time className="msg-time" dateTime={event.ts} title={fullDate(event.ts, locale)}>
            {relativeTime(event.ts, now, locale)}
          </time>
        </header>
        {m.replyTo && (
          <button type="button" className="msg-quote" data-reply-to={m.replyTo} onClick={() => onJumpTo(m.replyTo!)} title={t('chat.showQuoted')}>
            {m.quote ?? `reply to ${m.replyTo.slice(0, 8)}`}
          </button>
        )}
        {m.text && <MessageText text={m.text} raw={raw} />}
        {m.attachments.length > 0 && <Attachments groupId={groupId} attachments={m.attachments} />}
        <RecipientStatusList statuses={statuses} mode={m.mode} />
        <footer className="msg-actions">
          <button className="msg-reply" aria-label={t('chat.replyTo', { id: event.id })} onClick={() => onReply(event)}>
            {t('chat.reply')}
          </button>
          {m.text && (
            <button className="msg-raw-toggle" aria-pressed={raw} onClick={() => setRaw((r) => !r)} title={t('chat.plainTextHint')}>
              {raw ? t('chat.formatted') : t('chat.plainText')}
            </button>
          )}
        </footer>
      </div>
    </article>
  );
});
