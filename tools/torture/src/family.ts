import type { Profile } from './profile.js';
import type { Runner } from './runner.js';

/** A set of cases sharing one fresh daemon (or several) in one temp CCCC_HOME. */
export interface Family {
  readonly name: string;
  run(runner: Runner, profile: Profile): Promise<void>;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function randomInt(min: number, max: number): number {
  return min + Math.floor(Math.random() * (max - min + 1));
}

export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
