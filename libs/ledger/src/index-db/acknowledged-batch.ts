import type { IndexedEvent } from './index-ops.js';

/** Acknowledged bytes `[start, end)` of the active file and the events on them. */
export interface AcknowledgedBatch {
  start: number;
  end: number;
  items: IndexedEvent[];
}

/**
 * Batches that follow each other in the file (each starts where the one before ended) joined
 * into one. A steady stream hands over hundreds of one-event batches per timer tick: as one run
 * they make a few multi-row statements per table instead of several statements per event, for
 * the thread (which the event loop builds and copies to it: milliseconds per tick) or inline.
 * A gap (another process's bytes between two batches) keeps them apart.
 */
export function contiguousRuns(batches: readonly AcknowledgedBatch[]): AcknowledgedBatch[] {
  const runs: AcknowledgedBatch[] = [];
  for (const b of batches) {
    const last = runs[runs.length - 1];
    if (last && last.end === b.start) {
      last.end = b.end;
      for (const item of b.items) last.items.push(item);
    } else {
      runs.push({ start: b.start, end: b.end, items: [...b.items] });
    }
  }
  return runs;
}
