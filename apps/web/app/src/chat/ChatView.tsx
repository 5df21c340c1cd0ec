import { useCallback, useEffect, useRef, useState } from 'react';
import { api, type RouteResult } from '../api/client';
import { ApiError } from '../api/http';
import type { LedgerEvent } from '../api/types';
import { useActors } from '../api/use-actors';
import { ACTOR_KINDS, HUB_KINDS } from '../api/group-ledger-hub';
import { useLedgerStream } from '../api/use-ledger-stream';
import { Composer } from './Composer';
import { appendLive, mergeOlder, STATUS_KINDS, staleIdsFor } from './message';
import { MessageRow } from './MessageRow';
import { useStatuses } from './use-statuses';
import { VirtualList } from './VirtualList';

/** Messages per ledger_tail page; older pages load as the user scrolls up. */
const PAGE = 100;

type Page = RouteResult<'ledger_tail'>;
const keyOf = (e: LedgerEvent) => e.id;
/** Messages, everything that changes their status, and actor changes (composer completion). */
const STREAM_KINDS = ['chat.message', ...STATUS_KINDS, ...ACTOR_KINDS];

/**
 * The newest chat page plus the newest ledger event of a kind the shared stream carries (where
 * the live stream starts: the hub finds such a cursor in its memory instead of reopening).
 */
function fetchInitial(groupId: string): Promise<[Page, Page]> {
  return Promise.all([api.ledger_tail(groupId, { kinds: ['chat.message'], limit: PAGE }), api.ledger_tail(groupId, { kinds: [...HUB_KINDS], limit: 1 })]);
}

// A deep link's chat is requested as soon as the bundle runs, not after React's first commit:
// first render of a big group is dominated by this round trip on a busy machine.
let prefetched: { groupId: string; pages: Promise<[Page, Page]> } | null = null;
const linkedGroup = typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get('group');
if (linkedGroup) {
  prefetched = { groupId: linkedGroup, pages: fetchInitial(linkedGroup) };
  prefetched.pages.catch(() => undefined); // the view reports errors when it consumes it
}
function initialPages(groupId: string): Promise<[Page, Page]> {
  const p = prefetched;
  prefetched = null;
  return p && p.groupId === groupId ? p.pages : fetchInitial(groupId);
}

/**
 * The group chat: the newest page of chat.message events from ledger_tail, older pages on
 * scroll-up, live events over the ledger SSE stream (started right after the newest ledger
 * event seen at load, so nothing between the read and the stream is lost), per-recipient status
 * for the rows on screen, and a search mode over ledger_search.
 */
export function ChatView({ groupId }: { groupId: string }) {
  const [messages, setMessages] = useState<readonly LedgerEvent[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [since, setSince] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [replyTo, setReplyTo] = useState<LedgerEvent | null>(null);
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<readonly LedgerEvent[] | null>(null);
  const loadingOlder = useRef(false);
  const messagesRef = useRef(messages);
  messagesRef.current = messages;
  const { actors, reload: reloadActors } = useActors(groupId);
  const { statuses, want, invalidate } = useStatuses(groupId);

  useEffect(() => {
    let live = true;
    initialPages(groupId).then(
      ([page, newest]) => {
        if (!live) return;
        setMessages(page.events);
        setHasMore(page.has_more);
        setSince(newest.events.at(-1)?.id ?? null);
        setLoaded(true);
      },
      (e: Error) => live && setError(e instanceof ApiError ? `${e.code}: ${e.message}` : e.message),
    );
    return () => {
      live = false;
    };
  }, [groupId]);

  useLedgerStream(
    loaded ? groupId : null,
    STREAM_KINDS,
    (event) => {
      if (event.kind === 'chat.message') setMessages((prev) => appendLive(prev, event));
      if (event.kind.startsWith('actor.')) reloadActors();
      if (event.kind === 'chat.message' || STATUS_KINDS.has(event.kind)) invalidate(staleIdsFor(event, messagesRef.current));
    },
    since,
  );

  const loadOlder = useCallback(() => {
    const oldest = messagesRef.current[0];
    if (!hasMore || loadingOlder.current || !oldest) return;
    loadingOlder.current = true;
    api.ledger_tail(groupId, { kinds: ['chat.message'], limit: PAGE, before_event_id: oldest.id }).then(
      (page) => {
        setMessages((prev) => mergeOlder(page.events, prev));
        setHasMore(page.has_more);
        loadingOlder.current = false;
      },
      (e: Error) => {
        setError(e.message);
        loadingOlder.current = false;
      },
    );
  }, [groupId, hasMore]);

  const runSearch = (q: string) => {
    if (!q.trim()) {
      setResults(null);
      return;
    }
    api.ledger_search(groupId, { query: q, kinds: ['chat.message'], limit: 200 }).then(
      // Search answers newest first; the timeline reads oldest first.
      (page) => setResults([...page.events].reverse()),
      (e: Error) => setError(e.message),
    );
  };

  const renderRow = useCallback(
    (event: LedgerEvent) => <MessageRow groupId={groupId} event={event} statuses={statuses.get(event.id)} onReply={setReplyTo} />,
    [groupId, statuses],
  );

  const shown = results ?? messages;
  return (
    <section className="chat" aria-label="Chat">
      <form
        className="chat-search"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          runSearch(query);
        }}
      >
        <input aria-label="Search messages" placeholder="Search messages" value={query} onChange={(e) => setQuery(e.target.value)} />
        {results && (
          <button
            type="button"
            onClick={() => {
              setQuery('');
              setResults(null);
            }}
          >
            Back to chat ({results.length} found)
          </button>
        )}
      </form>
      {error && <p className="form-error">{error}</p>}
      {!loaded && !error ? (
        <p className="muted pad">Loading messages…</p>
      ) : shown.length === 0 ? (
        <p className="empty chat-empty">{results ? 'No messages match.' : 'No messages yet.'}</p>
      ) : (
        <VirtualList
          key={results ? 'search' : 'timeline'}
          className="timeline"
          label="Messages"
          items={shown}
          keyOf={keyOf}
          render={renderRow}
          onReachTop={results ? undefined : loadOlder}
          onRenderedChange={want}
        />
      )}
      <Composer groupId={groupId} actors={actors} replyTo={replyTo} onCancelReply={() => setReplyTo(null)} onSent={() => setReplyTo(null)} />
    </section>
  );
}
