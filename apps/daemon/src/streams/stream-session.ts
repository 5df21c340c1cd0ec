import { encodeLineText, type CCCSEventV1, type UpgradedConnection } from '@cccc/ipc-protocol';

/**
 * The `{t:"event"}` line of each event, encoded once: the followers of a group hand every
 * subscriber the same decoded event, so N subscribers share one buffer per event (a socket
 * queues a buffer by reference; a string would be copied per socket). Entries go with the event.
 */
const eventLines = new WeakMap<CCCSEventV1, Buffer>();

export function eventLine(event: CCCSEventV1): Buffer {
  let line = eventLines.get(event);
  if (!line) {
    line = Buffer.from(encodeLineText({ t: 'event', event }));
    eventLines.set(event, line);
  }
  return line;
}

/** The part of a ledger follower a stream needs: drain whatever was appended since last time. */
export interface EventSource {
  poll(): CCCSEventV1[];
  close(): void;
}

export interface StreamSessionOptions {
  /** Which events this subscriber sees (kinds filter, actor view). */
  readonly accept: (event: CCCSEventV1) => boolean;
  readonly heartbeatMs: number;
  /**
   * The bounded queue: bytes written to the subscriber but not yet taken by it. Past this the
   * subscriber is ended with `slow_subscriber`, never silently skipped ahead.
   */
  readonly maxPendingBytes: number;
  readonly onEnd: (reason: string) => void;
}

/**
 * One `events_stream` / `global_events_stream` subscriber: pulls from its own follower whenever
 * the hub says the ledger grew, writes `{t:"event"}` items, heartbeats while idle.
 */
export class StreamSession {
  private ended = false;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly subscriptions: Disposable[] = [];
  delivered = 0;

  constructor(
    private readonly connection: UpgradedConnection,
    private readonly source: EventSource,
    private readonly options: StreamSessionOptions,
  ) {
    this.heartbeat = setInterval(() => this.write({ t: 'heartbeat', ts: new Date().toISOString() }), options.heartbeatMs);
    this.heartbeat.unref();
    this.subscriptions.push(connection.onClose(() => this.end('client closed')));
    // Clients never write on an event stream; whatever they send is ignored, not buffered.
    this.subscriptions.push(connection.onData(() => {}));
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** Deliver everything new. Called once at start and after every append to the group. */
  pump(): void {
    if (this.ended) return;
    let events: CCCSEventV1[];
    try {
      events = this.source.poll();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      this.fail(typeof code === 'string' ? code : 'stream_failed', (error as Error).message);
      return;
    }
    for (const event of events) {
      if (!this.options.accept(event)) continue;
      if (!this.write(eventLine(event))) return;
      this.delivered++;
    }
  }

  /** End with a final error item, then close once it has been flushed (or soon after). */
  fail(code: string, message: string, details?: Record<string, unknown>): void {
    if (this.ended) return;
    this.connection.write(encodeLineText({ t: 'error', code, message, ...(details ? { details } : {}) }));
    this.end(code);
    setTimeout(() => this.connection.close(), 2000).unref();
  }

  end(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.heartbeat);
    for (const s of this.subscriptions.splice(0)) s[Symbol.dispose]();
    this.source.close();
    if (reason === 'client closed' || reason === 'daemon stopping') this.connection.close();
    this.options.onEnd(reason);
  }

  private write(item: Record<string, unknown> | Buffer): boolean {
    if (this.ended) return false;
    const queued = this.connection.pendingBytes;
    if (queued > this.options.maxPendingBytes) {
      this.fail('slow_subscriber', `subscriber fell more than ${this.options.maxPendingBytes} bytes behind; reconnect and reconcile`, { queued_bytes: queued, limit: this.options.maxPendingBytes });
      return false;
    }
    this.connection.write(Buffer.isBuffer(item) ? item : encodeLineText(item));
    return true;
  }
}
