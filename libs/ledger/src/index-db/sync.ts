import { statSync } from 'node:fs';
import { readManifest } from '../storage/manifest.js';
import { ACTIVE_SRC, type LedgerFiles, type SourcedLine } from '../storage/ledger-files.js';
import { decodeLine } from '../storage/line-codec.js';
import { contiguousRuns, type AcknowledgedBatch } from './acknowledged-batch.js';
import type { IndexedEvent, LedgerIndex } from './ledger-index.js';

const BATCH = 5_000;

function isBlank(bytes: Buffer): boolean {
  for (const b of bytes) if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  return true;
}

/** Index a run of complete lines: events in order, everything else recorded as damage. */
function indexLines(index: LedgerIndex, lines: Iterable<SourcedLine>): { lines: number } {
  let pending: IndexedEvent[] = [];
  let count = 0;
  for (const line of lines) {
    count += 1;
    if (isBlank(line.bytes)) continue;
    const decoded = decodeLine(line.bytes.toString('utf8'));
    if (decoded.ok) {
      pending.push({ event: decoded.event, src: line.src, off: line.off, len: line.len });
      if (pending.length >= BATCH) {
        index.insertEvents(pending);
        pending = [];
      }
    } else {
      index.recordDamage(line.src, line.off, line.len, decoded.reason);
    }
  }
  if (pending.length) index.insertEvents(pending);
  return { lines: count };
}

export interface CatchUpOptions {
  /** Batches this process wrote, in order, with their events already decoded (fast path). */
  batches?: readonly AcknowledgedBatch[];
  /** Index no bytes at or beyond this offset (bytes being written right now). */
  upTo?: number;
}

/**
 * Bring the index up to the active file's complete lines. Idempotent and cross-process safe:
 * the high-water mark is re-read inside an IMMEDIATE transaction, so bytes another process
 * already indexed are skipped and ours are indexed exactly once.
 */
export function catchUpActive(index: LedgerIndex, files: LedgerFiles, opts: CatchUpOptions = {}): void {
  index.exclusive(() => {
    let hwm = index.activeHwm();
    const scanTo = (end: number) => {
      const { lines, reader } = files.activeLinesFrom(hwm, end);
      indexLines(index, lines);
      hwm = reader.tailStart;
    };
    if (opts.batches) {
      // A run of our own batches is one insert: a few multi-row statements, not some per batch.
      for (const b of contiguousRuns(opts.batches)) {
        if (hwm >= b.end) continue;
        if (hwm === b.start) {
          index.insertEvents(b.items);
          hwm = b.end;
        } else {
          scanTo(b.end);
        }
      }
    } else {
      const { size } = files.activeReadFd();
      const end = Math.min(size, opts.upTo ?? size);
      if (end > hwm) scanTo(end);
    }
    index.setMeta('active_hwm', hwm);
  });
}

/** Why the index cannot be trusted against the files, or undefined when it can be caught up. */
export function staleReason(index: LedgerIndex, files: LedgerFiles): string | undefined {
  const segs = files.segments();
  const known = index.db.prepare<[], { src: number; lines: number; bytes: number }>('SELECT src, lines, bytes FROM sources ORDER BY src').all();
  if (known.length !== segs.length || known.some((k, i) => k.src !== segs[i]?.seq)) return 'segment set changed';
  // Sealed files never change in place; a different on-disk size means someone rewrote one.
  for (const [i, k] of known.entries()) {
    if (statSync(segs[i]!.path).size !== k.bytes) return `segment ${k.src} changed on disk`;
  }
  const manifest = readManifest(files.paths.manifest);
  for (const k of known) {
    const m = manifest.segments.find((s) => s.seq === k.src);
    // line_count 0 means unknown (the reference records discovered segments that way).
    if (m && m.line_count > 0 && m.line_count !== k.lines) return `segment ${k.src} line count differs`;
  }
  const hwm = index.activeHwm();
  const { size } = files.activeReadFd();
  if (hwm > size) return `index claims ${hwm} active bytes, file has ${size}`;
  const last = index.db
    .prepare<[number], { id: string; off: number; len: number }>('SELECT id, off, len FROM events WHERE ord > ? ORDER BY ord DESC LIMIT 1')
    .get(index.sealedMaxOrd());
  if (last) {
    if (last.off + last.len >= hwm) return 'active high-water mark precedes the last indexed event';
    const decoded = decodeLine(files.readAt(ACTIVE_SRC, last.off, last.len).toString('utf8'));
    if (!decoded.ok || decoded.event.id !== last.id) return 'last indexed event does not match the file';
  } else if (hwm > 0) {
    const nl = files.readAt(ACTIVE_SRC, hwm - 1, 1);
    if (nl[0] !== 0x0a) return 'active high-water mark is not at a line boundary';
  }
  return undefined;
}

/** Throw the index away and reindex every segment and the active file, in append order. */
export function rebuildIndex(index: LedgerIndex, files: LedgerFiles): void {
  index.withRebuildCache(() => rebuildLocked(index, files));
}

function rebuildLocked(index: LedgerIndex, files: LedgerFiles): void {
  index.exclusive(() => {
    index.clear();
    for (const seg of files.segments()) {
      const lines = (function* () {
        for (const l of files.segmentLines(seg.seq)) yield { ...l, src: seg.seq };
      })();
      const { lines: n } = indexLines(index, lines);
      index.db.prepare('INSERT INTO sources(src, lines, bytes) VALUES (?, ?, ?)').run(seg.seq, n, statSync(seg.path).size);
    }
    index.setMeta('sealed_max_ord', index.eventCount());
  });
  catchUpActive(index, files);
}
