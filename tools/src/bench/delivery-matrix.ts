import { formatReport } from '../delivery-matrix/report.js';
import { runMatrix } from '../delivery-matrix/cases.js';

/**
 * `npm run bench -- delivery-matrix`: the fault matrix of issue 19 against the real claude TUI
 * and the fake model; CCCC_MATRIX_RUNS runs per case (20 by default).
 */
export async function benchDeliveryMatrix(): Promise<void> {
  const runs = Number(process.env.CCCC_MATRIX_RUNS ?? 20);
  console.log(`\n## delivery-matrix (real claude, ${runs} runs per case)\n`);
  const rows = await runMatrix(runs, undefined, (line) => console.error(line));
  console.log(formatReport(rows));
}
