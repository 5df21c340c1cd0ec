import { activitySnapshot, type ActivityEntry } from '@cccc/hook-fence';
import { encodeLineText, type UpgradedConnection } from '@cccc/ipc-protocol';

export interface ActivitySessionOptions {
  readonly heartbeatMs: number;
  /** The bounded queue: unsent bytes past this end the subscriber with `slow_subscriber`. */
  readonly maxPendingBytes: number;
  /** The replayed snapshot's `stuck` threshold (activitySnapshot's default when absent). */
  readonly stuckAfterMs?: number;
  readonly onEnd: (reason: string) => void;
  /**
   * The handshake may never be written (the client left while the handler ran): a session not
   * attached by then is ended, so it neither stays subscribed nor buffers forever.
   */
  readonly attachTimeoutMs?: number;
}

/**
 * One `runtime_activity_stream` subscriber. It keeps the ids of the display revisions it has
 * accounted for (its "view": at most the store's 256 records) and, on every committed store
 * revision, sends the revisions it has not seen, in commit order. A store the daemon could not
 * read never reaches it (nothing is committed then), so it keeps its last accepted view until a
 * later valid revision arrives.
 *
 * Created under the group's activity lock before the handshake is written, so no commit can
 * fall between reading the initial store and subscribing; items produced before the connection
 * is attached wait in `early` (the snapshot and at most a few commits).
 */
export class ActivitySession {
  private view = new Set<string>();
  private connection: UpgradedConnection | undefined;
  private early: Array<Record<string, unknown>> = [];
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly subscriptions: Disposable[] = [];
  private ended = false;
  private readonly attachDeadline: NodeJS.Timeout;
  delivered = 0;

  /** `initial` is null when the store was unreadable at attach: nothing to replay, empty view. */
  constructor(initial: readonly ActivityEntry[] | null, replay: boolean, private readonly options: ActivitySessionOptions, now = new Date()) {
    this.attachDeadline = setTimeout(() => this.end('never attached'), options.attachTimeoutMs ?? 10_000);
    this.attachDeadline.unref();
    if (!initial) return;
    this.view = new Set(initial.map((e) => e.record.id));
    if (replay) for (const event of activitySnapshot(initial, now, options.stuckAfterMs)) this.early.push({ t: 'runtime-activity', event });
  }

  get isEnded(): boolean {
    return this.ended;
  }

  attach(connection: UpgradedConnection): void {
    if (this.ended) {
      connection.close();
      return;
    }
    clearTimeout(this.attachDeadline);
    this.connection = connection;
    this.heartbeat = setInterval(() => this.write({ t: 'heartbeat', ts: new Date().toISOString() }), this.options.heartbeatMs);
    this.heartbeat.unref();
    this.subscriptions.push(connection.onClose(() => this.end('client closed')));
    // Clients never write on this stream; whatever they send is ignored, not buffered.
    this.subscriptions.push(connection.onData(() => {}));
    const early = this.early.splice(0);
    for (const item of early) if (!this.write(item)) return;
  }

  /** A committed store revision: send what this subscriber has not seen, then adopt it as the view. */
  update(entries: readonly ActivityEntry[]): void {
    if (this.ended) return;
    const next = new Set<string>();
    for (const { record } of entries) {
      next.add(record.id);
      if (this.view.has(record.id)) continue;
      if (!this.write({ t: 'runtime-activity', event: record })) return;
    }
    this.view = next;
  }

  end(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.attachDeadline);
    clearInterval(this.heartbeat);
    this.early = [];
    for (const s of this.subscriptions.splice(0)) s[Symbol.dispose]();
    if (reason === 'client closed' || reason === 'daemon stopping') this.connection?.close();
    this.options.onEnd(reason);
  }

  private fail(code: string, message: string, details?: Record<string, unknown>): void {
    if (this.ended) return;
    const connection = this.connection!;
    connection.write(encodeLineText({ t: 'error', code, message, ...(details ? { details } : {}) }));
    this.end(code);
    setTimeout(() => connection.close(), 2000).unref();
  }

  private write(item: Record<string, unknown>): boolean {
    if (this.ended) return false;
    if (!this.connection) {
      this.early.push(item);
      return true;
    }
    const queued = this.connection.pendingBytes;
    if (queued > this.options.maxPendingBytes) {
      this.fail('slow_subscriber', `subscriber fell more than ${this.options.maxPendingBytes} bytes behind; reconnect with replay`, { queued_bytes: queued, limit: this.options.maxPendingBytes });
      return false;
    }
    this.connection.write(encodeLineText(item));
    if (item.t === 'runtime-activity') this.delivered++;
    return true;
  }
}
