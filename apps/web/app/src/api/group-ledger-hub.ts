import { routeUrl } from './client';
import type { LedgerEvent } from './types';

export const ACTOR_KINDS = ['actor.add', 'actor.update', 'actor.remove', 'actor.set_role', 'actor.start', 'actor.stop'] as const;

/**
 * Every ledger kind some view of the app follows live: chat messages, the user's notices and what
 * changes their status (chat), Mail reads (inbox), actor and group lifecycle, scopes and
 * working-state changes (actors panel, composer chips, onboarding). A stream that names no kinds carries only the chat kinds of
 * spec §8.15, so the one shared stream names them all; each subscriber still receives only the
 * kinds it asked for.
 */
export const HUB_KINDS: readonly string[] = [
  'chat.message',
  'runtime.delivery',
  'mail.read',
  'chat.reply_request.cancelled',
  'x.cccc.delivery_confirmation',
  ...ACTOR_KINDS,
  'actor.restart',
  'actor.activity',
  'group.start',
  'group.stop',
  'group.set_state',
  'group.attach',
  'group.detach_scope',
  'system.notify',
  'presentation.publish',
  'presentation.clear',
  'group.automation_update',
  'assistant.settings.update',
  'assistant.status.update',
  'assistant.voice.document',
  'assistant.voice.request',
  'assistant.voice.prompt_draft',
];

/** Events remembered per group so a late subscriber resumes from its cursor without a reconnect. */
const HISTORY = 1000;

type Listener = (event: LedgerEvent) => void;
interface Subscriber {
  readonly kinds: ReadonlySet<string>;
  readonly onEvent: Listener;
}

/**
 * One group's shared ledger stream. The browser allows 6 HTTP/1.1 connections per host; a page
 * that opened one ledger EventSource per view starved a second tab's fetches. EventSource
 * reconnects by itself with Last-Event-ID, so the server resumes without gaps.
 */
class GroupHub {
  private source: EventSource | null = null;
  /** The cursor the current EventSource was opened with (null = from the live tail). */
  private from: string | null = null;
  /** Events received since open, oldest first, and their ids (repeats after a reopen are dropped). */
  private history: LedgerEvent[] = [];
  private seen = new Set<string>();
  readonly subscribers = new Set<Subscriber>();

  constructor(private readonly groupId: string) {}

  add(sub: Subscriber, since: string | null): void {
    this.subscribers.add(sub);
    if (!this.source) return this.open(since);
    if (!since) return;
    if (since === this.from) return this.replay(sub, 0);
    const at = this.history.findIndex((e) => e.id === since);
    if (at >= 0) return this.replay(sub, at + 1);
    // The cursor is older than this stream (or not yet received): reopen from it. Subscribers
    // already here get only events they have not seen (the `seen` set); a cursor newer than
    // what this stream had received can cost them the in-flight events up to it, which the
    // actor list's poll covers.
    this.subscribers.delete(sub);
    this.open(since);
    this.subscribers.add(sub);
  }

  remove(sub: Subscriber): void {
    this.subscribers.delete(sub);
    if (this.subscribers.size === 0) this.close();
  }

  private replay(sub: Subscriber, start: number): void {
    for (const event of this.history.slice(start)) if (sub.kinds.has(event.kind)) sub.onEvent(event);
  }

  private open(since: string | null): void {
    this.source?.close();
    this.from = since;
    this.history = [];
    const url = routeUrl('ledger_stream', this.groupId, { kinds: [...HUB_KINDS], ...(since ? { since_event_id: since } : {}) });
    const source = new EventSource(url, { withCredentials: true });
    source.addEventListener('ledger', (e) => {
      if (this.source !== source) return;
      let event: LedgerEvent;
      try {
        event = JSON.parse((e as MessageEvent<string>).data) as LedgerEvent;
      } catch {
        return; // a malformed frame is skipped; the ledger stays the authority on reload
      }
      const repeat = this.seen.has(event.id);
      this.history.push(event);
      if (this.history.length > HISTORY) this.history.shift();
      if (repeat) return;
      this.seen.add(event.id);
      if (this.seen.size > HISTORY * 4) this.seen = new Set(this.history.map((h) => h.id));
      for (const sub of [...this.subscribers]) if (sub.kinds.has(event.kind)) sub.onEvent(event);
    });
    this.source = source;
  }

  private close(): void {
    this.source?.close();
    this.source = null;
    this.from = null;
    this.history = [];
    this.seen.clear();
  }
}

const hubs = new Map<string, GroupHub>();

/**
 * Follow `kinds` of a group's ledger through the app's one stream per group (ref-counted: it
 * closes when the last subscriber leaves). `since` = the newest event the caller already
 * loaded: events after it are delivered, from the stream's memory or by reopening from it.
 * Returns the unsubscribe function.
 */
export function subscribeLedger(groupId: string, kinds: readonly string[], onEvent: Listener, since: string | null = null): () => void {
  let hub = hubs.get(groupId);
  if (!hub) hubs.set(groupId, (hub = new GroupHub(groupId)));
  const sub: Subscriber = { kinds: new Set(kinds), onEvent };
  hub.add(sub, since);
  const owner = hub;
  return () => {
    owner.remove(sub);
    if (owner.subscribers.size === 0 && hubs.get(groupId) === owner) hubs.delete(groupId);
  };
}
