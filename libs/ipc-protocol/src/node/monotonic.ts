/**
 * Milliseconds on the monotonic clock. Not `performance.now()`: the `performance` global loads
 * perf_hooks on first use, ~0.5 ms of a cold `cccc ping` or hook process.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
