import { statSync } from 'node:fs';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { ledgerError, LedgerErrorCodes } from '../errors.js';
import { decodeLine } from './line-codec.js';
import { SegmentReads } from './segment-reads.js';
import { listSegments, type SegmentFile } from './segment-files.js';

/**
 * Which sealed segments were read strictly (every record decodes, spec §8.12) since this process
 * opened the ledger, keyed by the file's identity as it was then (path, size, mtime). A rotation
 * must not seal over damage anywhere, but it need not read unchanged history again: segments are
 * checked once, before the writer lock is taken and yielding between segments, so appends do not
 * wait on a scan of the whole history; under the lock only a segment changed since is read.
 */
export class SegmentVerification {
  private readonly verified = new Map<string, string>();

  private static stamp(seg: SegmentFile): string | undefined {
    try {
      const st = statSync(seg.path);
      return `${st.size}:${st.mtimeMs}`;
    } catch {
      return undefined;
    }
  }

  /** Segments remembered as checked (tests). */
  get size(): number {
    return this.verified.size;
  }

  isVerified(seg: SegmentFile): boolean {
    const stamp = SegmentVerification.stamp(seg);
    return stamp !== undefined && this.verified.get(seg.path) === stamp;
  }

  /** Record a segment as checked (just sealed from a checked active file, or just scanned). */
  markVerified(seg: SegmentFile): void {
    const stamp = SegmentVerification.stamp(seg);
    if (stamp !== undefined) this.verified.set(seg.path, stamp);
  }

  /** Scan one segment strictly (throws `ledger_malformed`) and remember it. */
  verify(seg: SegmentFile): void {
    if (this.isVerified(seg)) return;
    scanSegmentStrict(seg);
    this.markVerified(seg);
  }

  /**
   * Every sealed segment not yet checked, one at a time, giving the event loop a turn between
   * them. Damage is not reported here: the rotation, under the lock and after reconciling twin
   * files, reads a segment left unchecked again and refuses with the record's position.
   */
  async verifyAll(segmentsDir: string): Promise<void> {
    const segments = listSegments(segmentsDir);
    // Files gone since (a plain segment now gzipped) are forgotten: one entry per segment on disk.
    const present = new Set(segments.map((s) => s.path));
    for (const path of this.verified.keys()) if (!present.has(path)) this.verified.delete(path);
    for (const seg of segments) {
      try {
        this.verify(seg);
      } catch {
        // left unverified: the locked pass reports it
      }
      await yieldToEventLoop();
    }
  }
}

/** A plain segment is read in chunks; a .gz member by member, opened for the scan, then dropped. */
const strictReads = new SegmentReads();

export function scanSegmentStrict(seg: SegmentFile): void {
  strictReads.eachLineFrom(seg, 0, (line) => {
    const text = line.bytes.toString('utf8');
    if (text.trim() === '') return;
    const decoded = decodeLine(text);
    if (!decoded.ok) {
      throw ledgerError(LedgerErrorCodes.malformedLedger, `malformed ledger record (${decoded.reason}) in segment ${seg.seq} at byte ${line.off}`, {
        src: seg.seq,
        offset: line.off,
        reason: decoded.reason,
      });
    }
  });
}
