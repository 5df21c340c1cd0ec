import { setTimeout as sleep } from 'node:timers/promises';
import { ledgerError, LedgerErrorCodes } from '../errors.js';
import type { LedgerEvent } from '../types.js';
import { ACTIVE_SRC, type LedgerFiles } from './ledger-files.js';
import { decodeLine } from './line-codec.js';

/** Where a follower stands: just after the last event it returned. */
export interface FollowPosition {
  src: number;
  off: number;
  /** Inode of the active file when src is the active file (rotation detection). */
  ino: number;
  /** Highest sealed segment seq that existed when we were last positioned. */
  maxSeq: number;
  lastId: string | undefined;
}

/**
 * A stream reader that survives rotation: when the active file's inode changes, the bytes it
 * was reading now live in the first segment sealed after `maxSeq`, at the same offsets. If
 * those bytes are gone or hold a different event, it throws instead of skipping or repeating.
 */
export class LedgerFollower implements AsyncIterable<LedgerEvent>, Disposable {
  private closed = false;

  constructor(
    private readonly files: LedgerFiles,
    private pos: FollowPosition,
    private readonly pollMs = 50,
  ) {}

  get position(): Readonly<FollowPosition> {
    return this.pos;
  }

  /** Everything appended since the last call (complete records only). */
  poll(): LedgerEvent[] {
    const out: LedgerEvent[] = [];
    for (let guard = 0; guard < 10_000; guard++) {
      if (this.pos.src !== ACTIVE_SRC) {
        // A sealed segment is read in chunks from the cursor on, never held whole.
        const size = this.files.segmentLinesFrom(this.pos.src, this.pos.off, (line) => this.takeLine(out, line));
        if (size < this.pos.off) this.vanished('segment shorter than the cursor');
        this.pos.off = size;
        const next = this.files.segments().find((s) => s.seq > this.pos.src);
        this.pos.maxSeq = Math.max(this.pos.maxSeq, this.pos.src);
        if (next) this.pos = { ...this.pos, src: next.seq, off: 0 };
        else this.pos = { ...this.pos, src: ACTIVE_SRC, off: 0, ino: this.files.activeReadFd().ino };
        continue;
      }
      const { ino, size } = this.files.activeReadFd();
      if (this.pos.ino === -1 && this.pos.off === 0) {
        // Started before the active file existed. If it was created and already rotated away
        // since, its bytes are in the first segment sealed after our start: read from there.
        let sealed = this.files.segments().find((s) => s.seq > this.pos.maxSeq);
        if (!sealed && ino !== -1) {
          this.files.invalidate(); // the listing may predate a rotation by another process
          sealed = this.files.segments().find((s) => s.seq > this.pos.maxSeq);
        }
        if (sealed) {
          this.pos = { ...this.pos, src: sealed.seq, off: 0 };
          continue;
        }
        if (ino === -1) return out; // nothing appended yet
        this.pos.ino = this.files.activeReadFd().ino;
        continue;
      }
      if (ino !== this.pos.ino) {
        if (ino === -1) return out; // between rename and re-create; try again later
        this.files.invalidate();
        const sealed = this.files.segments().find((s) => s.seq > this.pos.maxSeq);
        if (!sealed) this.vanished('active ledger replaced but no new segment holds it');
        this.pos = { ...this.pos, src: sealed.seq };
        this.verifyBoundary();
        continue;
      }
      if (size < this.pos.off) this.vanished('active ledger shrank below the cursor');
      // Decoded once for every follower at this position (shared, read-only events).
      const { events, end } = this.files.activeEventsFrom(this.pos.off);
      for (const event of events) out.push(event);
      if (events.length > 0) this.pos.lastId = events[events.length - 1]!.id;
      this.pos.off = end;
      return out;
    }
    return out;
  }

  private takeLine(out: LedgerEvent[], line: { bytes: Buffer }): void {
    const decoded = decodeLine(line.bytes.toString('utf8'));
    if (!decoded.ok) return; // damage is reported by integrity(); streams carry events only
    out.push(decoded.event);
    this.pos.lastId = decoded.event.id;
  }

  /** After a rotation, the line ending at our offset must still be the last event we saw. */
  private verifyBoundary(): void {
    const { size, line } = this.files.segmentLineEndingAt(this.pos.src, this.pos.off);
    if (size < this.pos.off) this.vanished('rotated segment is shorter than the cursor');
    if (this.pos.off === 0 || this.pos.lastId === undefined) return;
    const decoded = line ? decodeLine(line.toString('utf8')) : undefined;
    if (!decoded?.ok || decoded.event.id !== this.pos.lastId) this.vanished(`event ${this.pos.lastId} is no longer at the cursor`);
  }

  private vanished(why: string): never {
    throw ledgerError(LedgerErrorCodes.cursorVanished, `follower cursor vanished: ${why}`, { last_event_id: this.pos.lastId ?? null });
  }

  async *[Symbol.asyncIterator](): AsyncIterator<LedgerEvent> {
    while (!this.closed) {
      const batch = this.poll();
      for (const e of batch) yield e;
      if (batch.length === 0) await sleep(this.pollMs);
    }
  }

  close(): void {
    this.closed = true;
  }

  [Symbol.dispose](): void {
    this.close();
  }
}
