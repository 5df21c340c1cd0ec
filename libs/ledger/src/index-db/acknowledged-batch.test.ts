import { describe, expect, it } from 'vitest';
import { contiguousRuns, type AcknowledgedBatch } from './acknowledged-batch.js';

describe('contiguousRuns', () => {
  it('joins batches that follow each other in the file, and keeps a gap', () => {
    const item = (off: number) => ({ event: { id: `e${off}` } as never, src: 0, off, len: 9 });
    const batches: AcknowledgedBatch[] = [
      { start: 0, end: 10, items: [item(0)] },
      { start: 10, end: 30, items: [item(10), item(20)] },
      { start: 40, end: 50, items: [item(40)] }, // bytes 30-40 are another writer's
      { start: 50, end: 60, items: [item(50)] },
    ];
    const runs = contiguousRuns(batches);
    expect(runs.map((r) => [r.start, r.end, r.items.map((i) => i.off)])).toEqual([
      [0, 30, [0, 10, 20]],
      [40, 60, [40, 50]],
    ]);
    expect(batches[0]!.items).toHaveLength(1); // the inputs are left as they were
  });
});
