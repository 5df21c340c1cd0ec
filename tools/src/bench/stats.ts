/** Latency summary in milliseconds. */
export interface LatencyStats {
  readonly n: number;
  readonly p50: number;
  readonly p99: number;
  readonly mean: number;
}

export function summarize(samplesMs: number[]): LatencyStats {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), mean };
}

export const fmt = (ms: number) => `${ms.toFixed(3)} ms`;

/** Print rows as an aligned text table. */
export function printTable(title: string, rows: Array<Record<string, string | number>>): void {
  console.log(`\n## ${title}`);
  if (rows.length === 0) return;
  const cols = Object.keys(rows[0]!);
  const cell = (v: string | number | undefined) => (typeof v === 'number' ? v.toLocaleString('en-US') : (v ?? ''));
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(cell(r[c])).length)));
  const line = (vals: string[]) => '| ' + vals.map((v, i) => v.padEnd(widths[i]!)).join(' | ') + ' |';
  console.log(line(cols));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const r of rows) console.log(line(cols.map((c) => String(cell(r[c])))));
}
