/**
 * The request-line and idle deadlines of every connection, checked by one shared, unref'd
 * interval instead of two timers per connection (a `socket.setTimeout` refreshed at each read
 * and write, and a line timer armed and cleared per request): on a fresh-connection-per-call
 * protocol those timers were a measurable share of the daemon's work per call. A deadline fires
 * at most one sweep period late, a small fraction of the timeouts it enforces.
 */
export interface DeadlineEntry {
  /** When the request line being read must be complete (ms, `now()` clock); Infinity: none. */
  lineDeadline: number;
  /** Last read or write (ms); the idle timeout counts from here. */
  lastActive: number;
  /** False once the connection no longer has an idle timeout (an upgraded stream). */
  idleApplies: boolean;
  readonly onLineTimeout: () => void;
  readonly onIdleTimeout: () => void;
}

export class DeadlineSweep {
  private readonly entries = new Set<DeadlineEntry>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly idleTimeoutMs: number,
    private readonly periodMs: number,
    readonly now: () => number = () => performance.now(),
  ) {}

  /** A sweep period for these timeouts: a tenth of the shorter one, within [5 ms, 1 s]. */
  static periodFor(...timeoutsMs: number[]): number {
    const shortest = Math.min(...timeoutsMs.filter((t) => t > 0));
    return Number.isFinite(shortest) ? Math.min(1000, Math.max(5, Math.floor(shortest / 10))) : 1000;
  }

  get size(): number {
    return this.entries.size;
  }

  add(entry: DeadlineEntry): void {
    this.entries.add(entry);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(), this.periodMs);
      this.timer.unref();
    }
  }

  /** Whether the sweep's interval runs (it stops at the first sweep that finds no connection). */
  get armed(): boolean {
    return this.timer !== undefined;
  }

  delete(entry: DeadlineEntry): void {
    // The interval is not cleared here: with a fresh connection per call (the protocol's usual
    // way), each call would arm and clear it again. The next sweep that finds nothing stops it.
    this.entries.delete(entry);
  }

  private sweep(): void {
    if (this.entries.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    const now = this.now();
    for (const entry of this.entries) {
      if (now >= entry.lineDeadline) {
        entry.lineDeadline = Infinity;
        entry.onLineTimeout();
      } else if (entry.idleApplies && this.idleTimeoutMs > 0 && now - entry.lastActive >= this.idleTimeoutMs) {
        entry.idleApplies = false;
        entry.onIdleTimeout();
      }
    }
  }
}
