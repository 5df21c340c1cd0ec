import { useEffect, useState } from 'react';
import { api, routeUrl } from '../api/client';
import { applyActivity, emptyActivity, pruneActivity, type ActivityRecord, type ActivityState } from './activity-store';

/**
 * One group's runtime activity: hydrated from the snapshot, then kept current by the SSE stream
 * with `replay=true` (EventSource reconnects with the same URL, so a brief disconnect replays the
 * short-lived view). Leaving the group (a new groupId or unmount) closes the stream and drops the
 * state at once; returning hydrates again from scratch.
 */
export function useRuntimeActivity(groupId: string): { state: ActivityState; now: number; error: string | null } {
  const [state, setState] = useState<ActivityState>(emptyActivity);
  const [now, setNow] = useState(() => Date.now());
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setState(emptyActivity);
    setError(null);
    let closed = false;
    const apply = (records: readonly ActivityRecord[]) => {
      if (closed || records.length === 0) return;
      const at = Date.now();
      setState((s) => pruneActivity(records.reduce((acc, r) => applyActivity(acc, r, at), s), at));
    };
    api.runtime_activity_snapshot(groupId).then(
      (r) => apply(r.events),
      // runtime_activity_unavailable: show nothing rather than a partial view; the stream
      // keeps its last accepted view and picks up a later valid store revision.
      (e: unknown) => !closed && setError(e instanceof Error ? e.message : String(e)),
    );
    const source = new EventSource(routeUrl('runtime_activity_stream', groupId, { replay: true }), { withCredentials: true });
    const onActivity = (e: MessageEvent<string>) => {
      try {
        const data = JSON.parse(e.data) as ActivityRecord | { event: ActivityRecord };
        apply(['event' in data ? data.event : data]);
        setError(null);
      } catch {
        // a malformed frame is skipped: this is an observability buffer, not an audit log
      }
    };
    // A named `error` frame carries the daemon's code (runtime_activity_unavailable, ...); a
    // plain connection error has no data and EventSource simply reconnects with replay.
    const onStreamError = (e: Event) => {
      if (!(e instanceof MessageEvent) || typeof e.data !== 'string') return;
      try {
        const body = JSON.parse(e.data) as { code?: string; message?: string };
        if (!closed) setError(`${body.code ?? 'error'}: ${body.message ?? ''}`);
      } catch {
        // not ours
      }
    };
    source.addEventListener('runtime-activity', onActivity as EventListener);
    source.addEventListener('error', onStreamError);
    return () => {
      closed = true;
      source.removeEventListener('runtime-activity', onActivity as EventListener);
      source.removeEventListener('error', onStreamError);
      source.close();
      setState(emptyActivity);
    };
  }, [groupId]);

  // A one-second clock drives expiry and the stuck diagnosis, only while something is shown.
  const busy = state.size > 0;
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => {
      const t = Date.now();
      setNow(t);
      setState((s) => pruneActivity(s, t));
    }, 1000);
    return () => clearInterval(timer);
  }, [busy]);

  // `now` only triggers the re-render; the projection reads the clock itself.
  return { state, now: Math.max(now, Date.now()), error };
}
