import { memo } from 'react';
import type { LedgerEvent } from '../api/types';
import { MessageText } from './MessageText';
import type { Notice } from './notices';
import { fullDate, relativeTime } from './time';
import { useI18n } from '../i18n/I18nProvider';

/** A system.notify for the user, inline in the conversation; priority sets its tone. */
export const NoticeRow = memo(function NoticeRow({ event, notice, now }: { event: LedgerEvent; notice: Notice; now: number }) {
  const { locale, t } = useI18n();
  return (
    <aside className="notice" data-event-id={event.id} data-priority={notice.priority} data-kind={notice.kind} aria-label={t('chat.notice', { title: notice.title || notice.kind })}>
      <span className="notice-icon" aria-hidden="true">
        {notice.priority === 'high' || notice.priority === 'urgent' ? '!' : 'i'}
      </span>
      <div className="notice-body">
        <header className="notice-head">
          <strong className="notice-title">{notice.title || notice.kind}</strong>
          <span className="muted">{t('chat.noticeFrom', { by: event.by })}</span>
          <time className="msg-time" dateTime={event.ts} title={fullDate(event.ts, locale)}>
            {relativeTime(event.ts, now, locale)}
          </time>
        </header>
        {notice.message && <MessageText text={notice.message} raw={false} />}
      </div>
    </aside>
  );
});
