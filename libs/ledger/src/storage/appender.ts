import { fsyncDir, ReusableFileLock } from '@cccc/durable-fs';
import { closeSync, existsSync, fdatasync, fdatasyncSync, fstatSync, mkdirSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { ledgerError, LedgerErrorCodes } from '../errors.js';
import type { AcknowledgedBatch } from '../index-db/acknowledged-batch.js';
import { IndexWriterThread } from '../index-db/index-writer-thread.js';
import type { LedgerIndex } from '../index-db/ledger-index.js';
import { catchUpActive } from '../index-db/sync.js';
import type { LedgerPaths } from '../paths.js';
import type { LedgerEvent } from '../types.js';
import { ACTIVE_SRC, type LedgerFiles } from './ledger-files.js';
import { MAX_BATCH } from './limits.js';
import { CommitCohort } from './commit-cohort.js';
import type { PreparedEvent } from './prepare-event.js';
import { SyncPlacement } from './sync-placement.js';

const fdatasyncAsync = promisify(fdatasync);
const SEPARATOR = Buffer.from('\n');
/**
 * Acknowledged batches go to the background index writer once this many events are waiting:
 * large messages mean few SQLite commits (each rewrites the B-trees' rightmost pages in the WAL)
 * and few thread hand-offs. Other events are indexed on a timer, by the thread if it runs, else
 * inline; only a burst or a steady stream starts the thread (~10 MB of memory), a trickle does
 * not (INLINE_INDEX_MAX_EVENTS). Reads never wait for the timer.
 */
const BACKGROUND_INDEX_AT_EVENTS = 2048;
const BACKGROUND_INDEX_AFTER_MS = 250;
/**
 * A timer's hand-off of more events than this starts the background writer rather than indexing
 * on the event loop: at ~15 µs an event here, 64 events hold every connection for a millisecond,
 * and a sustained 6,000 sends/s held them for ~20 ms every 250 ms. A few sends a second stay
 * inline and never start the thread.
 */
const INLINE_INDEX_MAX_EVENTS = 64;
/** A longer pause between two batches is idle time, not the serial path of a busy writer. */
const SERIAL_GAP_MAX_MS = 50;

/**
 * Decided under the writer lock with the index caught up, so checks such as client_id
 * deduplication or delivery transitions are atomic with the append across processes.
 * Returning a value skips the write and answers the caller with that value instead.
 */
export type Decide = (view: BatchView) => { write: true } | { write: false; answer: unknown };

/** The index as seen by one batch: committed rows plus the batch's earlier entries. */
export interface BatchView {
  /** Events of this batch that will be written before the current entry. */
  readonly earlier: readonly LedgerEvent[];
}

interface Pending {
  prepared: PreparedEvent;
  decide: Decide | undefined;
  resolve: (value: { written: true; event: LedgerEvent } | { written: false; answer: unknown }) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: appends queued while a batch is being written are written together with one
 * write and one fdatasync. Every caller is answered only after its bytes are durable.
 */
export class GroupCommitAppender {
  private queue: Pending[] = [];
  private draining = false;
  private fd: number | undefined;
  /** True while a batch is between lock and index update; readers must not index meanwhile. */
  busy = false;
  lockTimeoutMs = 30_000;
  /** Waiting events that hand the queue to the background index writer at once. */
  backgroundIndexAt = BACKGROUND_INDEX_AT_EVENTS;
  /**
   * Counters that make group commit observable: one write + one fdatasync per batch. `syncMs`
   * is the time from issuing each fdatasync to resuming after it (thread pool hops included);
   * `serialMs` the time from resuming after one to issuing the next while appends kept coming
   * (acknowledging, the callers' next appends, preparing and writing the batch): the two parts
   * of a batch's cycle. `inlineSyncs` counts the batches synced on this thread (a lone writer's).
   */
  readonly stats = { batches: 0, appends: 0, syncMs: 0, serialMs: 0, inlineSyncs: 0 };
  /** Whether a batch's fdatasync runs inline or on the thread pool (sync-placement.ts). */
  placement = SyncPlacement.shared;
  /** When the last fdatasync returned (0: nothing is in flight or it is too long ago to count). */
  private lastSyncEnd = 0;
  /** Gathers the writers a batch answered back into the next one (commit-cohort.ts). */
  private readonly cohort = new CommitCohort();
  /** Called after each durable batch with the active file's size (after acknowledging it). */
  onCommitted: ((activeBytes: number) => void) | undefined;
  /** Set when the index could not record a durable batch; the store resynchronizes it. */
  indexNeedsResync = false;
  /**
   * Durable batches not yet handed to the index. Indexing is off the acknowledgement path: a
   * full enough queue or a timer hands them to the background writer thread (started by a burst
   * or by a timer with more than a trickle waiting); readers, decisions and compaction flush
   * first (read-your-writes) and wait for what the thread still holds.
   */
  private unindexed: AcknowledgedBatch[] = [];
  private unindexedCount = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  /** The last message handed to the background writer: its sequence number and end offset. */
  private posted: { thread: IndexWriterThread; seq: number; end: number } | undefined;
  private readonly lock: ReusableFileLock;
  /** File size right after our last successful batch (which ended with a newline). */
  private knownEnd = -1;

  constructor(
    private readonly paths: LedgerPaths,
    private readonly files: LedgerFiles,
    private readonly index: LedgerIndex,
  ) {
    this.lock = new ReusableFileLock(paths.lock);
  }

  /** This process's own holder of the writer lock (a rotation): batches wait for it to end. */
  private holder: Promise<void> | undefined;

  /** Let batches wait for `held` (a step of this process under the writer lock) instead of polling the lock. */
  waitFor(held: Promise<void>): void {
    const mine = held.finally(() => {
      if (this.holder === mine) this.holder = undefined;
    });
    this.holder = mine;
  }

  private takeUnindexed(): AcknowledgedBatch[] {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const batches = this.unindexed;
    this.unindexed = [];
    this.unindexedCount = 0;
    return batches;
  }

  /**
   * Make every acknowledged batch queryable now: wait for what the background writer holds,
   * then index the rest on this thread, from the JSONL wherever the writer left a gap (it
   * failed, or another process's bytes came first). Safe at any time: it only touches durable
   * bytes.
   */
  flushIndex(): void {
    let reach = 0;
    if (this.posted) {
      this.posted.thread.waitFor(this.posted.seq);
      reach = this.posted.end;
      this.posted = undefined;
    }
    const batches = this.takeUnindexed();
    if (batches.length === 0 && (reach === 0 || this.index.activeHwm() >= reach)) return;
    try {
      catchUpActive(this.index, this.files, batches.length > 0 ? { batches } : { upTo: reach });
    } catch {
      this.indexNeedsResync = true; // the bytes are durable; a resync rebuilds the index
    }
  }

  /** Hand the acknowledged batches to the background writer (inline if there is none). */
  private indexInBackground(startThread: boolean): void {
    const thread = IndexWriterThread.shared(startThread);
    if (!thread) return this.flushIndex();
    const batches = this.takeUnindexed();
    if (batches.length === 0) return;
    const seq = thread.post(this.index.path, batches);
    this.posted = { thread, seq, end: batches[batches.length - 1]!.end };
  }

  private scheduleFlush(): void {
    if (this.unindexedCount >= this.backgroundIndexAt) this.indexInBackground(true);
    else if (!this.flushTimer && this.unindexed.length > 0) {
      this.flushTimer = setTimeout(() => this.indexInBackground(this.unindexedCount > INLINE_INDEX_MAX_EVENTS), BACKGROUND_INDEX_AFTER_MS);
      this.flushTimer.unref();
    }
  }

  enqueue(prepared: PreparedEvent, decide?: Decide): Promise<{ written: true; event: LedgerEvent } | { written: false; answer: unknown }> {
    return new Promise((resolve, reject) => {
      const leave = this.placement.enter();
      this.queue.push({
        prepared,
        decide,
        resolve: (value) => {
          leave();
          resolve(value);
        },
        reject: (err) => {
          leave();
          reject(err);
        },
      });
      this.cohort.arrived(this.queue.length);
      if (!this.draining) {
        this.draining = true;
        // A microtask lets every append issued in the same tick join the first batch.
        queueMicrotask(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        // Wait (briefly) for the writers the last batch answered, so they share this batch.
        const gathering = this.cohort.gather(this.queue.length);
        if (gathering) await gathering;
        // A lone append may be synced inline, which blocks the thread; first let every
        // connection that is readable now be read (setImmediate runs after this loop turn's
        // I/O), so that requests sent at the same time still form one batch and show concurrency.
        if (this.queue.length === 1 && this.placement.lone()) await new Promise<void>((resolve) => setImmediate(resolve));
        const batch = this.queue.splice(0, MAX_BATCH);
        // Asked for every batch: a batch of several is appends in flight together, and noted.
        const lone = this.placement.lone();
        await this.commit(batch, batch.length === 1 && lone);
        this.cohort.answered(batch.length, this.queue.length);
      }
    } finally {
      this.draining = false;
    }
  }

  /** The active file's name being made durable: every batch waits for it before acknowledging. */
  private entryDurable: Promise<unknown> | undefined;

  /**
   * The append fd and the file's size, reopened when another process rotated the file away
   * under us. One stat of the path and one fstat per batch: both are on the serial path.
   */
  private writeFd(): { fd: number; size: number } {
    if (this.fd !== undefined) {
      const pathIno = statSync(this.paths.active, { throwIfNoEntry: false })?.ino ?? -1; // -1: rotated, not yet recreated
      const st = fstatSync(this.fd);
      if (pathIno === st.ino) return { fd: this.fd, size: st.size };
      closeSync(this.fd);
      this.fd = undefined;
      this.knownEnd = -1;
      this.files.invalidate();
    }
    mkdirSync(dirname(this.paths.active), { recursive: true });
    const created = !existsSync(this.paths.active);
    this.fd = openSync(this.paths.active, 'a+', 0o644); // a+: appends, plus reading the last byte
    // fdatasync covers the file's bytes, not its name. The first batch written to an active file
    // (new here, or created by a rotation that synced its directory only after releasing the
    // lock) makes the name durable beside its own fdatasync, before anything is acknowledged;
    // a group's first file also the group directory's own entry.
    const entryDurable = Promise.all([fsyncDir(this.paths.groupDir), created ? fsyncDir(dirname(this.paths.groupDir)) : undefined]);
    entryDurable.catch(() => undefined); // awaited by the next batch that writes
    this.entryDurable = entryDurable;
    return { fd: this.fd, size: fstatSync(this.fd).size };
  }

  private async commit(batch: Pending[], mayInline: boolean): Promise<void> {
    let inline = mayInline;
    while (this.holder) {
      inline = false; // a rotation just used the disk: not the moment to sync on this thread
      await this.holder;
    }
    this.busy = true;
    let released!: () => void;
    this.lockReleased = new Promise<void>((resolve) => (released = resolve));
    try {
      if (!this.lock.tryLock()) await this.lock.lock(this.lockTimeoutMs);
      const { fd, size } = this.writeFd();
      // Decisions read the index, so it must hold every event before this batch, including
      // what other processes appended since our last look.
      if (batch.some((p) => p.decide)) {
        this.flushIndex();
        if (this.index.activeHwm() !== size) catchUpActive(this.index, this.files, { upTo: size });
      }
      // Our own last batch ended with a newline; only bytes from elsewhere need a look.
      const needsSeparator = size > 0 && size !== this.knownEnd && lastByte(fd, size) !== 0x0a;

      const toWrite: Pending[] = [];
      const earlier: LedgerEvent[] = [];
      for (const p of batch) {
        try {
          const decision = p.decide ? p.decide({ earlier }) : { write: true as const };
          if (decision.write) {
            toWrite.push(p);
            earlier.push(p.prepared.event);
          } else {
            p.prepared.discard();
            p.resolve({ written: false, answer: decision.answer });
          }
        } catch (err) {
          p.prepared.discard();
          p.reject(err);
        }
      }
      if (toWrite.length === 0) return;

      const parts: Buffer[] = needsSeparator ? [SEPARATOR] : [];
      let off = size + (needsSeparator ? 1 : 0);
      const items = toWrite.map((p) => {
        parts.push(p.prepared.line);
        const item = { event: p.prepared.event, src: ACTIVE_SRC, off, len: p.prepared.line.length - 1 };
        off += p.prepared.line.length;
        return item;
      });
      const buf = Buffer.concat(parts);
      try {
        // The write only copies into the page cache; the fdatasync is the slow, async part.
        writeAll(fd, buf);
        const syncStart = performance.now();
        if (this.lastSyncEnd > 0 && syncStart - this.lastSyncEnd < SERIAL_GAP_MAX_MS) this.stats.serialMs += syncStart - this.lastSyncEnd;
        const entry = this.entryDurable;
        // The file's name being made durable is async work already: the pool it is.
        if (inline && !entry) {
          fdatasyncSync(fd);
          this.placement.syncedInline(performance.now() - syncStart);
          this.stats.inlineSyncs += 1;
        } else {
          await Promise.all([fdatasyncAsync(fd), entry]);
        }
        if (this.entryDurable === entry) this.entryDurable = undefined;
        this.lastSyncEnd = performance.now();
        this.stats.syncMs += this.lastSyncEnd - syncStart;
      } catch (err) {
        // Reopened by the next batch, which then syncs the name again.
        this.entryDurable = undefined;
        if (this.fd !== undefined) closeSync(this.fd);
        this.fd = undefined;
        this.knownEnd = -1;
        const failure = ledgerError(LedgerErrorCodes.writeFailed, `ledger append failed: ${(err as Error).message}`);
        for (const p of toWrite) p.reject(failure);
        return;
      }
      this.knownEnd = size + buf.length;
      this.stats.batches += 1;
      this.stats.appends += toWrite.length;
      this.unindexed.push({ start: size, end: size + buf.length, items });
      this.unindexedCount += items.length;
      for (const p of toWrite) p.resolve({ written: true, event: p.prepared.event });
      this.onCommitted?.(this.knownEnd);
    } catch (err) {
      for (const p of batch) p.reject(err);
    } finally {
      this.busy = false;
      this.lock.unlock();
      this.lockReleased = undefined;
      released();
      this.scheduleFlush();
    }
  }

  /** Set while a batch of this process holds the writer lock; resolved when it lets go. */
  private lockReleased: Promise<void> | undefined;

  /**
   * Resolves once this process's batch in flight, if any, has released the writer lock. After
   * `waitFor`, no later batch takes it: a step of this process can then take the lock at once
   * instead of polling for it with a backoff that can overshoot the batch by many milliseconds.
   */
  async lockLetGo(): Promise<void> {
    while (this.lockReleased) await this.lockReleased;
  }

  close(): void {
    this.flushIndex();
    const thread = IndexWriterThread.current();
    // The thread keeps a connection per index it wrote: close it with the ledger.
    if (thread && thread.usedFor(this.index.path)) thread.waitFor(thread.release(this.index.path));
    this.lock.close();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  get idle(): boolean {
    return !this.draining && this.queue.length === 0;
  }
}

function lastByte(fd: number, size: number): number {
  const b = Buffer.alloc(1);
  readSync(fd, b, 0, 1, size - 1);
  return b[0] as number;
}

function writeAll(fd: number, buf: Buffer): void {
  let done = 0;
  while (done < buf.length) done += writeSync(fd, buf, done, buf.length - done);
}
