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
}

export function summarize(name: string, samples: readonly Sample[]): CaseRow {
  const counts: Record<DeliveryOutcome, number> = { once: 0, twice: 0, typed_not_submitted: 0, lost: 0 };
  for (const s of samples) counts[classify(s)]++;
  const latencies = samples.flatMap((s) => (s.confirmation === 'confirmed' && s.latencyMs !== null ? [s.latencyMs] : []));
  return {
    name,
    runs: samples.length,
    counts,
    confirmed: samples.filter((s) => s.confirmation === 'confirmed').length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    submitP50: percentile(samples.flatMap((s) => (typeof s.submitMs === 'number' ? [s.submitMs] : [])), 50),
  };
}

const ms = (v: number | null) => (v === null ? '-' : `${Math.round(v)} ms`);

export function formatReport(rows: readonly CaseRow[]): string {
  const head = '| case | runs | once | twice | typed, not submitted | lost | confirmed | claim→confirm p50 | p95 | claim→accepted p50 |';
  const lines = rows.map(
    (r) => `| ${r.name} | ${r.runs} | ${r.counts.once} | ${r.counts.twice} | ${r.counts.typed_not_submitted} | ${r.counts.lost} | ${r.confirmed} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.submitP50)} |`,
  );
  return [head, '|---|---|---|---|---|---|---|---|---|---|', ...lines].join('\n');
}
