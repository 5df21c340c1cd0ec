import { readFileSync } from 'node:fs';

/** Resident set size of a process from /proc/<pid>/status (VmRSS), in MiB. */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

export interface RssSample {
  /** Milliseconds since the sampler started. */
  readonly atMs: number;
  readonly mib: number;
}

/** RSS of `pid` every `everyMs`, from now until `stop()`; `peak` and `samples` as it goes. */
export class RssSampler {
  readonly samples: RssSample[] = [];
  private readonly t0 = performance.now();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    everyMs: number,
  ) {
    this.take();
    this.timer = setInterval(() => this.take(), everyMs);
  }

  take(): number {
    const mib = rssMiB(this.pid);
    this.samples.push({ atMs: performance.now() - this.t0, mib });
    return mib;
  }

  get peak(): number {
    return Math.max(...this.samples.map((s) => s.mib));
  }

  /** Samples taken in [fromMs, toMs). */
  between(fromMs: number, toMs: number): RssSample[] {
    return this.samples.filter((s) => s.atMs >= fromMs && s.atMs < toMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** Least-squares slope of RSS over time, in MiB per minute. */
export function slopeMiBPerMin(samples: readonly RssSample[]): number {
  const n = samples.length;
  if (n < 2) return NaN;
  const xs = samples.map((s) => s.atMs / 60_000);
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = samples.reduce((a, s) => a + s.mib, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (samples[i]!.mib - my);
    den += (xs[i]! - mx) ** 2;
  }
  return num / den;
}

export const mib = (v: number) => `${v.toFixed(1)} MiB`;
