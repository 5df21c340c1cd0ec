import { expect, it } from 'vitest';
import { runMatrix } from '../delivery-matrix/cases.js';
import { formatReport } from '../delivery-matrix/report.js';
import { describeWithRealClis } from './index.js';

// The short delivery matrix (3 runs per case) as CI runs it: no delivery lost or submitted twice,
// every one confirmed, nothing typed into a permission prompt, a restart cutting nothing. Latencies are printed, never asserted (the bench reports them).

describeWithRealClis('delivery matrix, short (real claude)', () => {
  it('every case: each delivery reaches the model once and is confirmed', async () => {
    const rows = await runMatrix(Number(process.env.CCCC_MATRIX_RUNS ?? 3), undefined, (line) => console.log(line));
    console.log(formatReport(rows));
    for (const row of rows) {
      expect(row, row.name).toMatchObject({ counts: { once: row.runs, twice: 0, typed_not_submitted: 0, lost: 0 }, confirmed: row.runs, unflagged: 0, violations: [] });
    }
  }, 900_000);
});
