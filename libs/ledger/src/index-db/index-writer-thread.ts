import { Worker } from 'node:worker_threads';
import { contiguousRuns, type AcknowledgedBatch } from './acknowledged-batch.js';
import { buildIndexOps } from './index-ops.js';
import { INDEX_CACHE_KIB } from './ledger-index.js';

/** Slots of the shared state array. */
const DONE_SEQ = 0;
const STATE = 1;
const DEAD = 2;
/** Longer than the worker's SQLite busy timeout (10 s): a wait only times out if it is stuck. */
const WAIT_LIMIT_MS = 30_000;
/**
 * How long the thread waits for more work before it exits: far longer than the 250 ms between a
 * steady stream's hand-offs, so a stream keeps one thread; short enough that the ~10 MiB of
 * resident memory the thread holds (its isolate, SQLite's page caches) goes back soon after a
 * burst instead of staying with an idle daemon for good.
 */
export const INDEX_WRITER_KEEP_ALIVE_MS = 10_000;

/**
 * The process's background index writer: one worker thread, shared by every ledger the process
 * has open, applies index ops for acknowledged batches on its own SQLite connection. The
 * appending thread only builds the ops (no B-tree work) and never waits for them, except when a
 * read, a decision or a compaction needs the index complete: then it blocks on a shared
 * counter until its last message was handled.
 *
 * The thread exits after `keepAliveMs` without messages; the next burst starts another.
 *
 * Nothing depends on the thread succeeding. Its transaction only continues the index's
 * high-water mark; anything it did not index (an error, another process's bytes first, a dead
 * thread) is caught up from the JSONL by the owner, like bytes another process appended.
 */
export class IndexWriterThread {
  private static instance: IndexWriterThread | undefined;
  static keepAliveMs = INDEX_WRITER_KEEP_ALIVE_MS;

  /**
   * The thread, started on first use unless `start` is false; undefined once it failed (callers
   * then index inline).
   */
  static shared(start = true): IndexWriterThread | undefined {
    if (!IndexWriterThread.instance && start) IndexWriterThread.instance = new IndexWriterThread();
    return IndexWriterThread.instance?.usable ? IndexWriterThread.instance : undefined;
  }

  /** The running thread if one was started (observability and tests), without starting one. */
  static current(): IndexWriterThread | undefined {
    return IndexWriterThread.instance;
  }

  private readonly shared = new Int32Array(new SharedArrayBuffer(8));
  private readonly worker: Worker;
  private sent = 0;
  private readonly paths = new Set<string>();
  private failed = false;
  private idle: NodeJS.Timeout | undefined;
  /** Events indexed and messages that failed, as reported back by the thread. */
  readonly stats = { messages: 0, indexed: 0, errors: 0, lastError: undefined as string | undefined };

  private constructor() {
    // tsup emits the worker next to the bundle that holds this module (dist/); the sources keep
    // it next to this file, so the same relative URL works for both.
    this.worker = new Worker(new URL('./index-writer-worker.js', import.meta.url), { workerData: { shared: this.shared.buffer, cacheKiB: INDEX_CACHE_KIB } });
    this.worker.on('message', (reply: { indexed?: number; error?: string }) => {
      this.stats.messages += 1;
      if (reply.error !== undefined) {
        this.stats.errors += 1;
        this.stats.lastError = reply.error;
      } else {
        this.stats.indexed += reply.indexed ?? 0;
      }
    });
    this.worker.on('error', (err) => {
      this.stats.lastError = err.message;
      this.failed = true;
    });
    this.worker.on('exit', () => {
      this.failed = true;
    });
    // After the listeners (adding a 'message' listener refs the thread again): the thread never
    // keeps a process alive; rows it did not write are caught up at the next open.
    this.worker.unref();
  }

  private get usable(): boolean {
    return !this.failed && Atomics.load(this.shared, STATE) !== DEAD;
  }

  /** Whether a message for the index at `path` was ever posted (it may hold a connection). */
  usedFor(path: string): boolean {
    return this.paths.has(path);
  }

  /** Queue the index writes of acknowledged batches of the index at `path`; returns the message's sequence number. */
  post(path: string, batches: readonly AcknowledgedBatch[]): number {
    const seq = ++this.sent;
    this.paths.add(path);
    this.worker.postMessage({
      type: 'index',
      seq,
      path,
      batches: contiguousRuns(batches).map((b) => ({ start: b.start, end: b.end, count: b.items.length, ops: buildIndexOps(b.items) })),
    });
    this.armIdle();
    return seq;
  }

  private armIdle(): void {
    if (this.idle) return void this.idle.refresh();
    this.idle = setTimeout(() => this.retireIfIdle(), IndexWriterThread.keepAliveMs);
    this.idle.unref();
  }

  /**
   * Let the thread go once it has handled every message. It is forgotten at once, so that work
   * that comes while it closes its connections starts a new thread (or is indexed inline); a
   * ledger's last posted message is already done, so waiting for it returns at once.
   */
  private retireIfIdle(): void {
    this.idle = undefined;
    if (IndexWriterThread.instance !== this || !this.usable) return;
    if (Atomics.load(this.shared, DONE_SEQ) < this.sent) return this.armIdle(); // still busy: look again later
    IndexWriterThread.instance = undefined;
    this.worker.postMessage({ type: 'retire' });
  }

  /** Drop the thread's connection to `path` (a closing ledger); returns the sequence number to wait for. */
  release(path: string): number {
    const seq = ++this.sent;
    this.paths.delete(path);
    this.worker.postMessage({ type: 'close', seq, path });
    return seq;
  }

  /**
   * Block until message `seq` was handled. False when the thread died or did not answer within
   * the limit; it is then not used again and the caller catches up from the JSONL itself.
   */
  waitFor(seq: number): boolean {
    const deadline = Date.now() + WAIT_LIMIT_MS;
    for (;;) {
      const done = Atomics.load(this.shared, DONE_SEQ);
      if (done >= seq) return true;
      if (!this.usable) return false;
      const left = deadline - Date.now();
      if (left <= 0) {
        this.failed = true;
        void this.worker.terminate();
        return false;
      }
      // Woken by the thread after each message, and when it is dying (STATE = DEAD).
      Atomics.wait(this.shared, DONE_SEQ, done, left);
    }
  }

  /** Kill the thread as a crash would (tests): it is not replaced, so ledgers index inline. */
  static async kill(): Promise<void> {
    const t = IndexWriterThread.instance;
    if (t?.idle) clearTimeout(t.idle);
    if (t) await t.worker.terminate();
  }

  /** Forget a stopped or failed thread (tests): the next shared() starts a new one. */
  static async reset(): Promise<void> {
    await IndexWriterThread.kill();
    IndexWriterThread.instance = undefined;
  }
}
