import { useEffect, useRef } from 'react';
import type { LedgerEvent } from './types';

/**
 * Follow a group's ledger over SSE (`GET /api/v1/groups/{gid}/ledger/stream`). EventSource
 * reconnects by itself and sends `Last-Event-ID`, so the server resumes without gaps or repeats.
 * `since` starts after a known event (the newest one the caller already loaded).
 */
export function useLedgerStream(groupId: string | null, onEvent: (event: LedgerEvent) => void, since?: string | null): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    if (!groupId) return;
    const qs = since ? `?since_event_id=${encodeURIComponent(since)}` : '';
    const source = new EventSource(`/api/v1/groups/${encodeURIComponent(groupId)}/ledger/stream${qs}`, { withCredentials: true });
    const listener = (e: MessageEvent<string>) => {
      try {
        handler.current(JSON.parse(e.data) as LedgerEvent);
      } catch {
        // a malformed frame is skipped; the ledger stays the authority on reload
      }
    };
    source.addEventListener('ledger', listener as EventListener);
    return () => {
      source.removeEventListener('ledger', listener as EventListener);
      source.close();
    };
  }, [groupId, since]);
}
