/** Without a sign of concurrency for this long, the writer counts as lone. */
export const LONE_AFTER_MS = 50;
/** An inline fdatasync slower than this means a busy disk... */
export const SLOW_INLINE_SYNC_MS = 2;
/**
 * ...and batches go back to the thread pool for this many times its duration: slow inline syncs
 * then hold the event loop for at most about 4% of the time, while a journal commit that slows
 * one sync now and then (every few seconds on ext4) costs a lone writer a tenth of a second.
 */
export const SLOW_SYNC_BACKOFF_FACTOR = 25;

/**
 * Where a batch's fdatasync runs: on libuv's thread pool, or inline on the writing thread.
 *
 * On the pool, the thread goes on serving requests during the sync, which a busy writer needs:
 * the appends that arrive meanwhile form the next batch. But the hand-off wakes a pool thread,
 * and its answer wakes the writing thread again: on this virtual machine about 100 µs of CPU per
 * batch and a good part of it in latency, paid by a lone writer (one agent sending, one client
 * awaiting each acknowledgement) on every append. So a lone writer's batch is synced inline.
 *
 * One placement serves every ledger of the process, since they share its event loop: an append
 * of any group in flight beside this one is concurrency, and it sends batches to the pool until
 * the process has been writing alone for `LONE_AFTER_MS` again. A slow inline sync (a busy disk,
 * a rotation's own syncs) does too, for `SLOW_SYNC_BACKOFF_FACTOR` times as long, so the loop does
 * not sit behind a disk.
 */
export class SyncPlacement {
  /** The process's placement, shared by its ledgers. */
  static readonly shared = new SyncPlacement();

  private inlineFrom = 0;
  /** Appends of any ledger enqueued and not yet answered. */
  private inFlight = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** An append was enqueued; call the returned function once it is answered. */
  enter(): () => void {
    this.inFlight += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.inFlight -= 1;
    };
  }

  /** Whether the process looks like a lone writer now; when it does not, that is noted. */
  lone(): boolean {
    if (this.inFlight > 1) this.inlineFrom = Math.max(this.inlineFrom, this.now() + LONE_AFTER_MS);
    return this.now() >= this.inlineFrom;
  }

  /** An inline sync took `ms`. */
  syncedInline(ms: number): void {
    if (ms > SLOW_INLINE_SYNC_MS) this.inlineFrom = Math.max(this.inlineFrom, this.now() + ms * SLOW_SYNC_BACKOFF_FACTOR);
  }
}
