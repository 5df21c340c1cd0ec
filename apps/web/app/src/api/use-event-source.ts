import { useEffect, useRef } from 'react';
import { routeUrl } from './client';

/**
 * Follow one named SSE event of `url` (null = not now). EventSource reconnects by itself; the
 * handler is read through a ref so a re-render does not reopen the stream.
 */
export function useEventSource<T>(url: string | null, eventName: string, onEvent: (data: T) => void): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    if (!url) return;
    const source = new EventSource(url, { withCredentials: true });
    const listener = (e: MessageEvent<string>) => {
      let data: T;
      try {
        data = JSON.parse(e.data) as T;
      } catch {
        return; // a malformed frame is skipped; the next reload reads the authority
      }
      handler.current(data);
    };
    source.addEventListener(eventName, listener as EventListener);
    return () => {
      source.removeEventListener(eventName, listener as EventListener);
      source.close();
    };
  }, [url, eventName]);
}

/** `{v,id,ts,kind,group_id}` frames of `GET /api/v1/events/stream`. */
export interface GlobalEvent {
  readonly id: string;
  readonly kind: string;
  readonly group_id?: string;
}

/** The global event stream (group lifecycle and every group's ledger, as summaries). */
export function useGlobalEvents(onEvent: (event: GlobalEvent) => void): void {
  useEventSource<GlobalEvent>(routeUrl('events_stream'), 'event', onEvent);
}
