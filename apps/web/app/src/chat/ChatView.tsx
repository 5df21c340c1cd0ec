import './chat.css';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { api } from '../api/client';
import type { LedgerEvent } from '../api/types';
import { useGroupLive } from '../group/GroupLive';
import { Onboarding } from '../onboarding/Onboarding';
import { ChatFilters } from './ChatFilters';
import { ChatSearch } from './ChatSearch';
import { Composer } from './Composer';
import { matchesFilter, statusCandidates, userReplyTargets, type ChatFilter } from './filters';
import { STATUS_KINDS, staleIdsFor } from './message';
import { MessageBubble } from './MessageBubble';
import { NoticeRow } from './NoticeRow';
import { buildTimeline, type TimelineItem } from './timeline';
import { useChatHistory } from './use-chat-history';
import { useNow } from './use-now';
import { useStatuses } from './use-statuses';
import { VirtualList } from './VirtualList';
import { WaitingBanner } from './WaitingBanner';
import { useI18n } from '../i18n/I18nProvider';

const keyOf = (item: TimelineItem) => item.key;

/**
 * The group conversation: messages and the user's notices with day separators (newest page
 * first, older pages on scroll-up, live over the shared ledger stream), per-recipient status
 * for the rows on screen, filters, search as you type, who is waiting on a person right now,
 * and the composer. An empty group shows its first steps instead.
 */
export function ChatView({ groupId, onOpenTerminal, onAddCustomActor }: { groupId: string; onOpenTerminal: (actorId: string) => void; onAddCustomActor: () => void }) {
  const live = useGroupLive();
  const actors = useMemo(() => live.actors ?? [], [live.actors]);
  const { statuses, want, invalidate } = useStatuses(groupId);
  const [replyTo, setReplyTo] = useState<LedgerEvent | null>(null);
  const [results, setResults] = useState<readonly LedgerEvent[] | null>(null);
  const [searchError, setSearchError] = useState<string | null>(null);
  const [filter, setFilter] = useState<ChatFilter>('all');
  const [focus, setFocus] = useState<{ key: string; seq: number } | null>(null);
  const now = useNow(30_000);

  const history = useChatHistory(groupId, (event, loaded) => {
    if (event.kind === 'chat.message' || STATUS_KINDS.has(event.kind)) invalidate(staleIdsFor(event, loaded));
  });

  // A status filter decides from statuses of every loaded candidate, not only the rows on screen.
  useEffect(() => {
    const ids = statusCandidates(filter, history.events);
    if (ids.length > 0) want(ids);
  }, [filter, history.events, want]);

  const runSearch = useCallback(
    (q: string) => {
      setSearchError(null);
      if (!q) return setResults(null);
      api.ledger_search(groupId, { query: q, kinds: ['chat.message'], limit: 200 }).then(
        // Search answers newest first; the conversation reads oldest first.
        (page) => setResults([...page.events].reverse()),
        (e: Error) => setSearchError(e.message),
      );
    },
    [groupId],
  );

  const { locale, t } = useI18n();
  const shown = results ?? history.events;
  const items = useMemo(() => {
    const ctx = { statuses, repliedByUser: userReplyTargets(history.events) };
    return buildTimeline(
      shown.filter((e) => matchesFilter(filter, e, ctx)),
      now,
      locale,
    );
  }, [shown, filter, statuses, history.events, now, locale]);
  const actorById = useMemo(() => new Map(actors.map((a) => [a.id, a])), [actors]);
  const jumpTo = useCallback((eventId: string) => setFocus((f) => ({ key: eventId, seq: (f?.seq ?? 0) + 1 })), []);
  const messageIds = useMemo(() => new Set(items.flatMap((i) => (i.type === 'message' ? [i.key] : []))), [items]);
  const wantMessages = useCallback((keys: readonly string[]) => want(keys.filter((k) => messageIds.has(k))), [want, messageIds]);

  const renderItem = useCallback(
    (item: TimelineItem) => {
      switch (item.type) {
        case 'day':
          return (
            <div className="day-sep" role="separator">
              <span>{item.label}</span>
            </div>
          );
        case 'notice':
          return <NoticeRow event={item.event} notice={item.notice} now={now} />;
        case 'message':
          return (
            <MessageBubble
              groupId={groupId}
              event={item.event}
              actor={actorById.get(item.event.by)}
              statuses={statuses.get(item.event.id)}
              now={now}
              focused={focus?.key === item.key}
              onReply={setReplyTo}
              onJumpTo={jumpTo}
            />
          );
      }
    },
    [groupId, actorById, statuses, now, focus, jumpTo],
  );

  const error = history.error ?? searchError;
  const empty = history.loaded && history.events.length === 0 && !results;
  return (
    <section className="chat" aria-label={t('app.view.chat')}>
      <div className="chat-tools">
        <ChatSearch found={results ? results.length : null} onSearch={runSearch} />
        <ChatFilters value={filter} onChange={setFilter} />
      </div>
      {error && <p className="form-error">{error}</p>}
      {!history.loaded && !error ? (
        <p className="muted pad">{t('chat.loadingMessages')}</p>
      ) : empty ? (
        <div className="chat-empty">
          <Onboarding groupId={groupId} onAddCustomActor={onAddCustomActor} setUp={<p className="empty">{t('chat.noMessages')}</p>} />
        </div>
      ) : items.length === 0 ? (
        <p className="empty chat-empty">{results ? 'No messages match.' : 'No messages match this filter.'}</p>
      ) : (
        <VirtualList
          key={results ? 'search' : `timeline:${filter}`}
          className="timeline"
          label={t('chat.messages')}
          items={items}
          keyOf={keyOf}
          render={renderItem}
          onReachTop={results ? undefined : history.loadOlder}
          onRenderedChange={wantMessages}
          focus={focus}
        />
      )}
      <WaitingBanner groupId={groupId} actors={actors} activity={live.activity.state} onOpenTerminal={onOpenTerminal} />
      <Composer groupId={groupId} actors={actors} replyTo={replyTo} onCancelReply={() => setReplyTo(null)} onSent={() => setReplyTo(null)} />
    </section>
  );
}
