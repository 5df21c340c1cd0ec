// The delivery-matrix report (issue 19): per case, how each delivery ended and how long from its
// claim to its confirmation. Pure: the runner collects samples, this classifies and formats.

export type DeliveryOutcome = 'once' | 'twice' | 'typed_not_submitted' | 'lost';

export interface Sample {
  /** How many model requests carried the delivery's text (0 when it never reached the model). */
  readonly modelCount: number;
  /** Whether the text is on the agent's screen (typed) when the model never got it. */
  readonly onScreen: boolean;
  readonly confirmation: 'confirmed' | 'unconfirmed' | null;
  /** `runtime.delivery` claimed → `x.cccc.delivery_confirmation` confirmed, ms. */
  readonly latencyMs: number | null;
  /** `runtime.delivery` claimed → accepted (paste, the wait before Enter, Enter), ms. */
  readonly submitMs?: number | null;
  /**
   * claimed → the agent running its UserPromptSubmit hook, ms: claim → accepted, then the
   * confirmation's `prompt_hook_ms` (the hook's own start-up and transport left out).
   */
  readonly promptMs?: number | null;
  /** The sender was told it may not have landed: an `unconfirmed` confirmation, or an `ambiguous`/`failed` delivery. */
  readonly flagged?: boolean;
  /** A fresh launch: the agent's SessionStart hook → this delivery's confirmation, ms. */
  readyMs?: number | null;
  /** A case's own rule was broken (a held message typed into a permission prompt). */
  readonly violation?: string;
  /** What the ledger and the model saw of it, for the log. */
  readonly trace?: string;
}

export function classify(s: Sample): DeliveryOutcome {
  if (s.modelCount >= 2) return 'twice';
  if (s.modelCount === 1) return 'once';
  return s.onScreen ? 'typed_not_submitted' : 'lost';
}

export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export interface CaseRow {
  readonly name: string;
  readonly runs: number;
  readonly counts: Record<DeliveryOutcome, number>;
  readonly confirmed: number;
  readonly p50: number | null;
  readonly p95: number | null;
  readonly submitP50: number | null;
  readonly promptP50: number | null;
  readonly promptP95: number | null;
  /** Deliveries that did not land once and were not flagged to the sender (target 0). */
  readonly unflagged: number;
  readonly readyP50: number | null;
  readonly violations: readonly string[];
}

export function summarize(name: string, samples: readonly Sample[]): CaseRow {
  const counts: Record<DeliveryOutcome, number> = { once: 0, twice: 0, typed_not_submitted: 0, lost: 0 };
  for (const s of samples) counts[classify(s)]++;
  const latencies = samples.flatMap((s) => (s.confirmation === 'confirmed' && s.latencyMs !== null ? [s.latencyMs] : []));
  const numbers = (pick: (s: Sample) => number | null | undefined) => samples.flatMap((s) => (typeof pick(s) === 'number' ? [pick(s)!] : []));
  const prompt = numbers((s) => s.promptMs);
  return {
    name,
    runs: samples.length,
    counts,
    confirmed: samples.filter((s) => s.confirmation === 'confirmed').length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    submitP50: percentile(numbers((s) => s.submitMs), 50),
    promptP50: percentile(prompt, 50),
    promptP95: percentile(prompt, 95),
    unflagged: samples.filter((s) => classify(s) !== 'once' && s.flagged !== true).length,
    readyP50: percentile(numbers((s) => s.readyMs), 50),
    violations: samples.flatMap((s) => (s.violation ? [s.violation] : [])),
  };
}

const ms = (v: number | null) => (v === null ? '-' : `${Math.round(v)} ms`);

export function formatReport(rows: readonly CaseRow[]): string {
  const head =
    '| case | runs | once | twice | typed, not submitted | lost | not once and not flagged | confirmed | claim→confirm p50 | p95 | claim→accepted p50 | claim→UserPromptSubmit p50 | p95 | SessionStart→confirmed p50 |';
  const lines = rows.map(
    (r) =>
      `| ${r.name} | ${r.runs} | ${r.counts.once} | ${r.counts.twice} | ${r.counts.typed_not_submitted} | ${r.counts.lost} | ${r.unflagged} | ${r.confirmed} | ` +
      `${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.submitP50)} | ${ms(r.promptP50)} | ${ms(r.promptP95)} | ${ms(r.readyP50)} |`,
  );
  const violations = rows.flatMap((r) => r.violations.map((v) => `- ${r.name}: ${v}`));
  return [head, `|${'---|'.repeat(14)}`, ...lines, ...(violations.length > 0 ? ['', 'Violations:', ...violations] : [])].join('\n');
}
