import { formatReport } from '../delivery-matrix/report.js';
import { MATRIX_CASES, runMatrix, selectedCases } from '../delivery-matrix/cases.js';

/**
 * `npm run bench -- delivery-matrix`: the fault matrix of issue 19 against the real claude TUI
 * and the fake model; CCCC_MATRIX_RUNS runs per case (20 by default), CCCC_MATRIX_CASES to pick
 * cases by name. Then the baseline measured in the same run: the cases submit by evidence
 * changes (a ready agent, a fresh launch) as the reference's notes describe them: the fixed
 * waits (CCCC_SUBMIT_EVIDENCE=0: 1.5 s before Enter, the whole preamble gap) and the start-up
 * prompt as a turn of its own before the first task (CCCC_PREAMBLE_SEPARATE=1).
 */
export async function benchDeliveryMatrix(): Promise<void> {
  const runs = Number(process.env.CCCC_MATRIX_RUNS ?? 20);
  const log = (line: string) => console.error(line);
  console.log(`\n## delivery-matrix (real claude, ${runs} runs per case)\n`);
  console.log(formatReport(await runMatrix(runs, selectedCases(), log)));
  const baselineCases = MATRIX_CASES.filter((c) => c.name === 'ready agent' || c.name === 'fresh launch');
  console.log(`\n### baseline: the same cases with the fixed waits and a separate start-up turn (CCCC_SUBMIT_EVIDENCE=0 CCCC_PREAMBLE_SEPARATE=1), ${runs} runs per case\n`);
  console.log(formatReport(await runMatrix(runs, baselineCases, log, { daemonEnv: { CCCC_SUBMIT_EVIDENCE: '0', CCCC_PREAMBLE_SEPARATE: '1' } })));
}
