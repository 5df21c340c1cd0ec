import { useCallback, useEffect, useRef, useState } from 'react';
import { api, type RouteResult } from '../api/client';
import { ApiError } from '../api/http';
import { HUB_KINDS } from '../api/group-ledger-hub';
import { useLedgerStream } from '../api/use-ledger-stream';
import type { LedgerEvent } from '../api/types';
import { appendLive, mergeOlder, STATUS_KINDS } from './message';

/** Messages per ledger_tail page; older pages load as the user scrolls up. */
const PAGE = 100;
/** What the conversation shows: messages and notices (the user's are picked in timeline.ts). */
export const CONVERSATION_KINDS = ['chat.message', 'system.notify'];
/** What the conversation follows live: its rows and everything that changes a message's status. */
const STREAM_KINDS = [...CONVERSATION_KINDS, ...STATUS_KINDS];

type Page = RouteResult<'ledger_tail'>;

/**
 * The newest conversation page plus the newest ledger event of a kind the shared stream carries
 * (where the live stream starts: the hub finds such a cursor in its memory instead of reopening).
 */
function fetchInitial(groupId: string): Promise<[Page, Page]> {
  return Promise.all([api.ledger_tail(groupId, { kinds: CONVERSATION_KINDS, limit: PAGE }), api.ledger_tail(groupId, { kinds: [...HUB_KINDS], limit: 1 })]);
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

export interface ChatHistory {
  /** Loaded messages and notices, oldest first. */
  readonly events: readonly LedgerEvent[];
  readonly loaded: boolean;
  readonly error: string | null;
  readonly loadOlder: () => void;
}

/**
 * The conversation's events: the newest page from ledger_tail, older pages on demand, live
 * events over the shared ledger stream (started right after the newest ledger event seen at
 * load, so nothing between the read and the stream is lost). `onLive` sees every live event
 * (status changes included) after it was applied.
 */
export function useChatHistory(groupId: string, onLive: (event: LedgerEvent, loaded: readonly LedgerEvent[]) => void): ChatHistory {
  const [events, setEvents] = useState<readonly LedgerEvent[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [since, setSince] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const loadingOlder = useRef(false);
  const eventsRef = useRef(events);
  eventsRef.current = events;

  useEffect(() => {
    let live = true;
    initialPages(groupId).then(
      ([page, newest]) => {
        if (!live) return;
        setEvents(page.events);
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
      if (CONVERSATION_KINDS.includes(event.kind)) setEvents((prev) => appendLive(prev, event));
      onLive(event, eventsRef.current);
    },
    since,
  );

  const loadOlder = useCallback(() => {
    const oldest = eventsRef.current[0];
    if (!hasMore || loadingOlder.current || !oldest) return;
    loadingOlder.current = true;
    api.ledger_tail(groupId, { kinds: CONVERSATION_KINDS, limit: PAGE, before_event_id: oldest.id }).then(
      (page) => {
        setEvents((prev) => mergeOlder(page.events, prev));
        setHasMore(page.has_more);
        loadingOlder.current = false;
      },
      (e: Error) => {
        setError(e.message);
        loadingOlder.current = false;
      },
    );
  }, [groupId, hasMore]);

  return { events, loaded, error, loadOlder };
}
