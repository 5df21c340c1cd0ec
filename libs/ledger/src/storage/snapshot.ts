import { createHash } from 'node:crypto';
import { writeFileAtomicSync } from '@cccc/durable-fs';
import { ledgerError, LedgerErrorCodes } from '../errors.js';
import type { LedgerEvent } from '../types.js';
import type { ActiveScan } from './active-prescan.js';
import type { LedgerFiles, SourcedLine } from './ledger-files.js';
import { decodeLine, encodeEvent } from './line-codec.js';

export interface SnapshotReport {
  schema: 1;
  group_id: string;
  created_at: string;
  reason: string;
  event_count: number;
  /** sha256 over each event's canonical JSON plus "\n", in append order. */
  sha256: string;
  first_event_id: string | null;
  last_event_id: string | null;
  segment_count: number;
}

/**
 * Count and hash every event across sealed segments and the active file. A malformed record or
 * a torn tail fails the snapshot: an integrity report must never silently omit a record.
 */
export function scanStrict(files: LedgerFiles, visit: (event: LedgerEvent) => void): void {
  scanLinesStrict(files, files.forward(), visit);
}

/**
 * The active file alone, strictly (what a rotation is about to seal; sealed segments were
 * checked when they were sealed). Returns its line count, as the manifest records it. With
 * `from` (a `prescanActive` of the same file, taken before the writer lock) only the bytes
 * appended since are read: the file only grows at its end.
 */
export function scanActiveStrict(files: LedgerFiles, from?: ActiveScan): number {
  const { ino, size } = files.activeReadFd();
  const resume = from && from.ino === ino && from.end <= size ? from : undefined;
  let lines = resume?.lines ?? 0;
  scanLinesStrict(files, files.activeLinesFrom(resume?.end ?? 0).lines, () => undefined, () => lines++);
  return lines;
}

function scanLinesStrict(files: LedgerFiles, lines: Iterable<SourcedLine>, visit: (event: LedgerEvent) => void, onLine: () => void = () => undefined): void {
  for (const line of lines) {
    onLine();
    if (line.bytes.toString('utf8').trim() === '') continue;
    const decoded = decodeLine(line.bytes.toString('utf8'));
    if (!decoded.ok) {
      throw ledgerError(LedgerErrorCodes.malformedLedger, `malformed ledger record (${decoded.reason}) in ${line.src === 0 ? 'ledger.jsonl' : `segment ${line.src}`} at byte ${line.off}`, {
        src: line.src,
        offset: line.off,
        reason: decoded.reason,
      });
    }
    visit(decoded.event);
  }
  const torn = files.tornTail();
  if (torn) {
    throw ledgerError(LedgerErrorCodes.malformedLedger, `ledger.jsonl ends with a torn record at byte ${torn.off} (${torn.len} bytes)`, {
      src: 0,
      offset: torn.off,
      reason: 'torn tail',
    });
  }
}

export function takeSnapshot(files: LedgerFiles, groupId: string, createdAt: string, reason: string, outPath: string | undefined): SnapshotReport {
  const hash = createHash('sha256');
  let count = 0;
  let first: string | null = null;
  let last: string | null = null;
  scanStrict(files, (event) => {
    hash.update(encodeEvent(event) + '\n');
    count += 1;
    first ??= event.id;
    last = event.id;
  });
  const report: SnapshotReport = {
    schema: 1,
    group_id: groupId,
    created_at: createdAt,
    reason,
    event_count: count,
    sha256: hash.digest('hex'),
    first_event_id: first,
    last_event_id: last,
    segment_count: files.segments().length,
  };
  if (outPath) writeFileAtomicSync(outPath, JSON.stringify(report, null, 2) + '\n');
  return report;
}
